declare module 'wink-porter2-stemmer' {
  /** Porter2 (English) stem of a lower-case word. */
  export default function stem(word: string): string;
}

declare module 'stopword' {
  /** English stop words. */
  export const eng: string[];
  /** Stop words of the other languages read by `otherLatinLanguage` (ISO 639-3 codes). */
  export const spa: string[], por: string[], fra: string[], deu: string[], ita: string[], nld: string[], pol: string[], tur: string[], ind: string[], vie: string[];
  export const ron: string[], ces: string[], swe: string[], dan: string[], nob: string[], fin: string[], hun: string[], cat: string[], glg: string[], hrv: string[];
  export const slk: string[], slv: string[], est: string[], lav: string[], lit: string[], eus: string[], afr: string[], msa: string[], swa: string[], tgl: string[];
}
