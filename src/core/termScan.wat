;; The word scanner of full-text search (searchTerms.ts, which says what a
;; word and a term are), for a checkpoint's text as UTF-16 units: the same
;; words, counted the same way, as the JavaScript scanner, but 64 units at a
;; time for the common case (letters and digits of ASCII found with SIMD
;; compares, a word's start and end from the bits), and a word looked up in
;; constant time (its first and last four units hashed, up to eight units
;; compared at once). What it cannot decide it hands back to JavaScript: a unit
;; whose class is not known yet, a word it has not met, a dead end's twin. It
;; is compiled by scripts/wasm.js into termScanWasm.ts.
;;
;; Memory regions are laid out by JavaScript (setLayout), byte offsets:
;;   cls     u8 per UTF-16 unit: 0 not known, 1 in a word, 2 not
;;   text    the text's units, followed by 128 bytes of slack
;;   pieces  i32 triples: start, end (units, end excluded), field
;;   words   i32 triples: start, end, field, per word found by `words`
;;   slots   16 bytes per slot: hash, id, start in kept, length (0: empty)
;;   kept    the units of the words kept, followed by 16 bytes of slack
;;   at      i32 per term id: where it stands in ids, plus one (0: not yet)
;;   twin    i32 per term id: its dead-end twin's id (-1: not known)
;;   ids     i32 per distinct term of the text
;;   tfs     i32, their weighted counts
;;   fields  i32 per field: its weight
(module
  (memory (export "memory") 1)
  (global $cls (mut i32) (i32.const 0))
  (global $text (mut i32) (i32.const 0))
  (global $pieces (mut i32) (i32.const 0))
  (global $words (mut i32) (i32.const 0))
  (global $slots (mut i32) (i32.const 0))
  (global $mask (mut i32) (i32.const 0))
  (global $kept (mut i32) (i32.const 0))
  (global $at (mut i32) (i32.const 0))
  (global $twin (mut i32) (i32.const 0))
  (global $ids (mut i32) (i32.const 0))
  (global $tfs (mut i32) (i32.const 0))
  (global $fields (mut i32) (i32.const 0))
  (global $dead (mut i32) (i32.const -1))
  (global $count (export "count") (mut i32) (i32.const 0))
  (global $length (export "length") (mut i32) (i32.const 0))
  (global $used (export "used") (mut i32) (i32.const 0))
  (global $size (export "size") (mut i32) (i32.const 0))
  (global $why (export "why") (mut i32) (i32.const 0))
  (global $whyId (export "whyId") (mut i32) (i32.const 0))

  (func (export "setLayout") (param $cls i32) (param $text i32) (param $pieces i32) (param $words i32)
    (param $slots i32) (param $mask i32) (param $kept i32) (param $at i32) (param $twin i32)
    (param $ids i32) (param $tfs i32) (param $fields i32) (param $dead i32)
    (global.set $cls (local.get $cls))
    (global.set $text (local.get $text))
    (global.set $pieces (local.get $pieces))
    (global.set $words (local.get $words))
    (global.set $slots (local.get $slots))
    (global.set $mask (local.get $mask))
    (global.set $kept (local.get $kept))
    (global.set $at (local.get $at))
    (global.set $twin (local.get $twin))
    (global.set $ids (local.get $ids))
    (global.set $tfs (local.get $tfs))
    (global.set $fields (local.get $fields))
    (global.set $dead (local.get $dead)))

  ;; The words of pieces [0, n): their start, end and field into `words`.
  ;; Returns how many, or -1 - u when unit u's class is not known (JavaScript
  ;; classifies it and calls again: nothing else is written).
  (func (export "words") (param $n i32) (result i32)
    (local $pi i32) (local $a i32) (local $b i32) (local $field i32) (local $pos i32)
    (local $valid i32) (local $addr i32) (local $j i32) (local $c i32) (local $cl i32)
    (local $v v128) (local $hi i64) (local $m i64) (local $prev i64) (local $starts i64)
    (local $ends i64) (local $carry i64) (local $ns i32) (local $ne i32) (local $w i32)
    (block $pieces_done
      (loop $each_piece
        (br_if $pieces_done (i32.ge_u (local.get $pi) (local.get $n)))
        (local.set $addr (i32.add (global.get $pieces) (i32.mul (local.get $pi) (i32.const 12))))
        (local.set $a (i32.load (local.get $addr)))
        (local.set $b (i32.load offset=4 (local.get $addr)))
        (local.set $field (i32.load offset=8 (local.get $addr)))
        (local.set $pos (local.get $a))
        (local.set $carry (i64.const 0))
        (block $blocks_done
          (loop $each_block
            (br_if $blocks_done (i32.ge_u (local.get $pos) (local.get $b)))
            (local.set $valid (i32.sub (local.get $b) (local.get $pos)))
            (local.set $addr (i32.add (global.get $text) (i32.shl (local.get $pos) (i32.const 1))))
            ;; ASCII letters and digits, 8 units a vector, and which units are past ASCII.
            (local.set $m (i64.const 0))
            (local.set $hi (i64.const 0))
            (local.set $j (i32.const 0))
            (loop $vectors
              (local.set $v (v128.load (i32.add (local.get $addr) (i32.shl (local.get $j) (i32.const 4)))))
              (local.set $hi (i64.or (local.get $hi)
                (i64.shl
                  (i64.extend_i32_u (i16x8.bitmask (i16x8.gt_u (local.get $v) (i16x8.splat (i32.const 0x7f)))))
                  (i64.extend_i32_u (i32.shl (local.get $j) (i32.const 3))))))
              (local.set $m (i64.or (local.get $m)
                (i64.shl
                  (i64.extend_i32_u (i16x8.bitmask (v128.or
                    (i16x8.lt_u (i16x8.sub (local.get $v) (i16x8.splat (i32.const 48))) (i16x8.splat (i32.const 10)))
                    (i16x8.lt_u (i16x8.sub (v128.or (local.get $v) (i16x8.splat (i32.const 32))) (i16x8.splat (i32.const 97))) (i16x8.splat (i32.const 26))))))
                  (i64.extend_i32_u (i32.shl (local.get $j) (i32.const 3))))))
              (local.set $j (i32.add (local.get $j) (i32.const 1)))
              (br_if $vectors (i32.lt_u (local.get $j) (i32.const 8))))
            (if (i32.lt_u (local.get $valid) (i32.const 64))
              (then
                (local.set $m (i64.and (local.get $m)
                  (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $valid))) (i64.const 1))))
                (local.set $hi (i64.and (local.get $hi)
                  (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $valid))) (i64.const 1))))))
            ;; Each unit past ASCII through the class table (the compares above do not know it).
            (block $hi_done
              (loop $his
                (br_if $hi_done (i64.eqz (local.get $hi)))
                (local.set $j (i32.wrap_i64 (i64.ctz (local.get $hi))))
                (local.set $c (i32.load16_u (i32.add (local.get $addr) (i32.shl (local.get $j) (i32.const 1)))))
                (local.set $cl (i32.load8_u (i32.add (global.get $cls) (local.get $c))))
                (if (i32.eqz (local.get $cl))
                  (then (return (i32.sub (i32.const -1) (i32.add (local.get $pos) (local.get $j))))))
                (local.set $m (select
                  (i64.or (local.get $m) (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $j))))
                  (i64.and (local.get $m) (i64.xor (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $j))) (i64.const -1)))
                  (i32.eq (local.get $cl) (i32.const 1))))
                (local.set $hi (i64.and (local.get $hi) (i64.sub (local.get $hi) (i64.const 1))))
                (br $his)))
            ;; Bit j of starts: a word starts at unit j; of ends: unit j is the first after one.
            (local.set $prev (i64.or (i64.shl (local.get $m) (i64.const 1)) (local.get $carry)))
            (local.set $starts (i64.and (local.get $m) (i64.xor (local.get $prev) (i64.const -1))))
            ;; (In a block cut short by the stretch's end, m is 0 past it: a word running to the end ends at bit `valid`.)
            (local.set $ends (i64.and (i64.xor (local.get $m) (i64.const -1)) (local.get $prev)))
            (local.set $carry (i64.shr_u (local.get $m) (i64.const 63)))
            (block $s_done
              (loop $s
                (br_if $s_done (i64.eqz (local.get $starts)))
                (local.set $w (i32.add (global.get $words) (i32.mul (local.get $ns) (i32.const 12))))
                (i32.store (local.get $w) (i32.add (local.get $pos) (i32.wrap_i64 (i64.ctz (local.get $starts)))))
                (i32.store offset=8 (local.get $w) (local.get $field))
                (local.set $ns (i32.add (local.get $ns) (i32.const 1)))
                (local.set $starts (i64.and (local.get $starts) (i64.sub (local.get $starts) (i64.const 1))))
                (br $s)))
            (block $e_done
              (loop $e
                (br_if $e_done (i64.eqz (local.get $ends)))
                (i32.store offset=4 (i32.add (global.get $words) (i32.mul (local.get $ne) (i32.const 12)))
                  (i32.add (local.get $pos) (i32.wrap_i64 (i64.ctz (local.get $ends)))))
                (local.set $ne (i32.add (local.get $ne) (i32.const 1)))
                (local.set $ends (i64.and (local.get $ends) (i64.sub (local.get $ends) (i64.const 1))))
                (br $e)))
            (local.set $pos (i32.add (local.get $pos) (i32.const 64)))
            (br $each_block)))
        ;; A word running to the end of a piece that ends on a block's end.
        (if (i32.wrap_i64 (local.get $carry))
          (then
            (i32.store offset=4 (i32.add (global.get $words) (i32.mul (local.get $ne) (i32.const 12))) (local.get $b))
            (local.set $ne (i32.add (local.get $ne) (i32.const 1)))))
        (local.set $pi (i32.add (local.get $pi) (i32.const 1)))
        (br $each_piece)))
    (local.get $ns))

  ;; A word's hash from its first and last four units and its length: the
  ;; table below compares the units themselves, so this need only spread.
  (func $hash (param $p i32) (param $len i32) (result i32)
    (local $a i64) (local $b i64) (local $h i64)
    (local.set $a (i64.load (local.get $p)))
    (if (i32.lt_u (local.get $len) (i32.const 4))
      (then
        (local.set $a (i64.and (local.get $a)
          (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (i32.shl (local.get $len) (i32.const 4)))) (i64.const 1))))
        (local.set $b (local.get $a)))
      (else
        (local.set $b (i64.load (i32.add (local.get $p) (i32.shl (i32.sub (local.get $len) (i32.const 4)) (i32.const 1)))))))
    (local.set $h (i64.xor
      (i64.xor (i64.mul (local.get $a) (i64.const 0x9E3779B97F4A7C15)) (i64.mul (i64.rotl (local.get $b) (i64.const 31)) (i64.const 0xC2B2AE3D27D4EB4F)))
      (i64.extend_i32_u (local.get $len))))
    (i32.wrap_i64 (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 32)))))

  ;; Whether the `len` units at byte offsets p and q are the same, eight at a time.
  (func $same (param $p i32) (param $q i32) (param $len i32) (result i32)
    (local $m i32) (local $all i32)
    (loop $blocks
      (local.set $m (i16x8.bitmask (i16x8.eq (v128.load (local.get $p)) (v128.load (local.get $q)))))
      (if (i32.gt_u (local.get $len) (i32.const 8))
        (then
          (if (i32.ne (local.get $m) (i32.const 255)) (then (return (i32.const 0))))
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (local.set $q (i32.add (local.get $q) (i32.const 16)))
          (local.set $len (i32.sub (local.get $len) (i32.const 8)))
          (br $blocks))))
    (local.set $all (i32.sub (i32.shl (i32.const 1) (local.get $len)) (i32.const 1)))
    (i32.eq (i32.and (local.get $m) (local.get $all)) (local.get $all)))

  ;; The id of the word of `len` units at byte offset p (hash h); -2 when not kept.
  (func $find (param $p i32) (param $len i32) (param $h i32) (result i32)
    (local $slot i32) (local $s i32) (local $l i32)
    (local.set $slot (i32.and (local.get $h) (global.get $mask)))
    (loop $probe
      (local.set $s (i32.add (global.get $slots) (i32.shl (local.get $slot) (i32.const 4))))
      (local.set $l (i32.load offset=12 (local.get $s)))
      (if (i32.eqz (local.get $l)) (then (return (i32.const -2))))
      (if (i32.and (i32.eq (local.get $l) (local.get $len)) (i32.eq (i32.load (local.get $s)) (local.get $h)))
        (then
          (if (call $same (local.get $p) (i32.add (global.get $kept) (i32.shl (i32.load offset=8 (local.get $s)) (i32.const 1))) (local.get $len))
            (then (return (i32.load offset=4 (local.get $s)))))))
      (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (global.get $mask)))
      (br $probe))
    (i32.const -2))

  (func $place (param $h i32) (param $start i32) (param $len i32) (param $id i32)
    (local $slot i32) (local $s i32)
    (local.set $slot (i32.and (local.get $h) (global.get $mask)))
    (block $free
      (loop $probe
        (local.set $s (i32.add (global.get $slots) (i32.shl (local.get $slot) (i32.const 4))))
        (br_if $free (i32.eqz (i32.load offset=12 (local.get $s))))
        (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (global.get $mask)))
        (br $probe)))
    (i32.store (local.get $s) (local.get $h))
    (i32.store offset=4 (local.get $s) (local.get $id))
    (i32.store offset=8 (local.get $s) (local.get $start))
    (i32.store offset=12 (local.get $s) (local.get $len))
    (global.set $size (i32.add (global.get $size) (i32.const 1))))

  ;; Keeps the word of `len` units at unit `start` of the text under `id`
  ;; (JavaScript has made room: slots at most half full, kept past `used + len`).
  (func (export "keep") (param $start i32) (param $len i32) (param $id i32)
    (local $p i32)
    (local.set $p (i32.add (global.get $text) (i32.shl (local.get $start) (i32.const 1))))
    (memory.copy (i32.add (global.get $kept) (i32.shl (global.get $used) (i32.const 1))) (local.get $p) (i32.shl (local.get $len) (i32.const 1)))
    (call $place (call $hash (local.get $p) (local.get $len)) (global.get $used) (local.get $len) (local.get $id))
    (global.set $used (i32.add (global.get $used) (local.get $len))))

  ;; A slot placed again (JavaScript moving the slots to a larger table: the kept units stay where they are).
  (func (export "place") (param $h i32) (param $start i32) (param $len i32) (param $id i32)
    (call $place (local.get $h) (local.get $start) (local.get $len) (local.get $id)))

  ;; Forgets every word kept.
  (func (export "clear")
    (memory.fill (global.get $slots) (i32.const 0) (i32.shl (i32.add (global.get $mask) (i32.const 1)) (i32.const 4)))
    (global.set $used (i32.const 0))
    (global.set $size (i32.const 0)))

  ;; Counts term `id` with weight `w`, without a branch on whether it is new.
  (func $add (param $id i32) (param $w i32)
    (local $at i32) (local $a i32) (local $new i32) (local $t i32)
    (local.set $at (i32.add (global.get $at) (i32.shl (local.get $id) (i32.const 2))))
    (local.set $a (i32.load (local.get $at)))
    (local.set $new (i32.eqz (local.get $a)))
    (i32.store (i32.add (global.get $ids) (i32.shl (global.get $count) (i32.const 2))) (local.get $id))
    (local.set $a (select (i32.add (global.get $count) (i32.const 1)) (local.get $a) (local.get $new)))
    (i32.store (local.get $at) (local.get $a))
    (global.set $count (i32.add (global.get $count) (local.get $new)))
    (local.set $t (i32.add (global.get $tfs) (i32.shl (i32.sub (local.get $a) (i32.const 1)) (i32.const 2))))
    (i32.store (local.get $t) (i32.add (select (i32.const 0) (i32.load (local.get $t)) (local.get $new)) (local.get $w))))

  ;; Counts word k, term `id` (-1: NFKC left nothing, not counted), with its twin when it is a dead end's.
  (func $counted (param $k i32) (param $id i32)
    (local $field i32) (local $w i32)
    (if (i32.lt_s (local.get $id) (i32.const 0)) (then (return)))
    (local.set $field (i32.load offset=8 (i32.add (global.get $words) (i32.mul (local.get $k) (i32.const 12)))))
    (local.set $w (i32.load (i32.add (global.get $fields) (i32.shl (local.get $field) (i32.const 2)))))
    (call $add (local.get $id) (local.get $w))
    (global.set $length (i32.add (global.get $length) (local.get $w)))
    (if (i32.eq (local.get $field) (global.get $dead))
      (then (call $add (i32.load (i32.add (global.get $twin) (i32.shl (local.get $id) (i32.const 2)))) (i32.const 1)))))

  ;; Tallies words [from, n) found by `words`; `id` is word `from`'s term
  ;; when JavaScript has just resolved it (-2: look it up). Returns -1 when
  ;; done, else the word JavaScript must resolve, `why` saying why: 1 a word
  ;; not kept (or too long to keep), 2 its term's dead-end twin not known
  ;; (the term in `whyId`). The hash, the lookup and the count are written out
  ;; in the loop: a call per word cost as much as the work.
  (func (export "tally") (param $from i32) (param $n i32) (param $id i32) (result i32)
    (local $k i32) (local $w i32) (local $start i32) (local $len i32) (local $p i32) (local $found i32)
    (local $a i64) (local $b i64) (local $h64 i64) (local $h i32) (local $slot i32) (local $s i32) (local $l i32)
    (local $all i32) (local $field i32) (local $weight i32) (local $t i32)
    (local $at i32) (local $a32 i32) (local $new i32) (local $tp i32)
    (local.set $k (local.get $from))
    (if (i32.ne (local.get $id) (i32.const -2))
      (then
        (call $counted (local.get $k) (local.get $id))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $w (i32.add (global.get $words) (i32.mul (local.get $k) (i32.const 12))))
        (local.set $start (i32.load (local.get $w)))
        (local.set $len (i32.sub (i32.load offset=4 (local.get $w)) (local.get $start)))
        (local.set $field (i32.load offset=8 (local.get $w)))
        ;; Longer than MAX_KEPT (wordTable.ts): never kept, JavaScript cuts it each time.
        (if (i32.gt_u (local.get $len) (i32.const 128))
          (then (global.set $why (i32.const 1)) (return (local.get $k))))
        (local.set $p (i32.add (global.get $text) (i32.shl (local.get $start) (i32.const 1))))
        ;; $hash
        (local.set $a (i64.load (local.get $p)))
        (if (i32.lt_u (local.get $len) (i32.const 4))
          (then
            (local.set $a (i64.and (local.get $a)
              (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (i32.shl (local.get $len) (i32.const 4)))) (i64.const 1))))
            (local.set $b (local.get $a)))
          (else
            (local.set $b (i64.load (i32.add (local.get $p) (i32.shl (i32.sub (local.get $len) (i32.const 4)) (i32.const 1)))))))
        (local.set $h64 (i64.xor
          (i64.xor (i64.mul (local.get $a) (i64.const 0x9E3779B97F4A7C15)) (i64.mul (i64.rotl (local.get $b) (i64.const 31)) (i64.const 0xC2B2AE3D27D4EB4F)))
          (i64.extend_i32_u (local.get $len))))
        (local.set $h (i32.wrap_i64 (i64.xor (local.get $h64) (i64.shr_u (local.get $h64) (i64.const 32)))))
        ;; $find, the first eight units compared here
        (local.set $slot (i32.and (local.get $h) (global.get $mask)))
        (local.set $all (i32.sub (i32.shl (i32.const 1) (select (local.get $len) (i32.const 8) (i32.lt_u (local.get $len) (i32.const 8)))) (i32.const 1)))
        (block $hit
          (loop $probe
            (local.set $s (i32.add (global.get $slots) (i32.shl (local.get $slot) (i32.const 4))))
            (local.set $l (i32.load offset=12 (local.get $s)))
            (if (i32.eqz (local.get $l))
              (then (global.set $why (i32.const 1)) (return (local.get $k))))
            (if (i32.and (i32.eq (local.get $l) (local.get $len)) (i32.eq (i32.load (local.get $s)) (local.get $h)))
              (then
                (if (i32.eq (i32.and (i16x8.bitmask (i16x8.eq (v128.load (local.get $p))
                      (v128.load (i32.add (global.get $kept) (i32.shl (i32.load offset=8 (local.get $s)) (i32.const 1))))))
                      (local.get $all)) (local.get $all))
                  (then
                    (br_if $hit (i32.le_u (local.get $len) (i32.const 8)))
                    (br_if $hit (call $same (local.get $p) (i32.add (global.get $kept) (i32.shl (i32.load offset=8 (local.get $s)) (i32.const 1))) (local.get $len)))))))
            (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (global.get $mask)))
            (br $probe)))
        (local.set $found (i32.load offset=4 (local.get $s)))
        ;; $counted, with $add written out
        (if (i32.ge_s (local.get $found) (i32.const 0))
          (then
            (local.set $t (i32.const -1))
            (if (i32.eq (local.get $field) (global.get $dead))
              (then
                (local.set $t (i32.load (i32.add (global.get $twin) (i32.shl (local.get $found) (i32.const 2)))))
                (if (i32.lt_s (local.get $t) (i32.const 0))
                  (then (global.set $why (i32.const 2)) (global.set $whyId (local.get $found)) (return (local.get $k))))))
            (local.set $weight (i32.load (i32.add (global.get $fields) (i32.shl (local.get $field) (i32.const 2)))))
            ;; $add
            (local.set $at (i32.add (global.get $at) (i32.shl (local.get $found) (i32.const 2))))
            (local.set $a32 (i32.load (local.get $at)))
            (local.set $new (i32.eqz (local.get $a32)))
            (i32.store (i32.add (global.get $ids) (i32.shl (global.get $count) (i32.const 2))) (local.get $found))
            (local.set $a32 (select (i32.add (global.get $count) (i32.const 1)) (local.get $a32) (local.get $new)))
            (i32.store (local.get $at) (local.get $a32))
            (global.set $count (i32.add (global.get $count) (local.get $new)))
            (local.set $tp (i32.add (global.get $tfs) (i32.shl (i32.sub (local.get $a32) (i32.const 1)) (i32.const 2))))
            (i32.store (local.get $tp) (i32.add (select (i32.const 0) (i32.load (local.get $tp)) (local.get $new)) (local.get $weight)))
            (global.set $length (i32.add (global.get $length) (local.get $weight)))
            (if (i32.ge_s (local.get $t) (i32.const 0)) (then (call $add (local.get $t) (i32.const 1))))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $each)))
    (i32.const -1))

  ;; Empties the counts of the last text.
  (func (export "reset")
    (local $k i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $k) (global.get $count)))
        (i32.store (i32.add (global.get $at) (i32.shl (i32.load (i32.add (global.get $ids) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 2))) (i32.const 0))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $each)))
    (global.set $count (i32.const 0))
    (global.set $length (i32.const 0)))
)
