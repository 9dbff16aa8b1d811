// wink-porter2-stemmer 2.0.1 ships no types: its one export, from its README.
declare module 'wink-porter2-stemmer' {
  /** The Porter2 (English snowball) stem of one lower-case word. */
  function stem(word: string): string;
  export = stem;
}
