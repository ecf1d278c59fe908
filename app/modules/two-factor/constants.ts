/** Longest code accepted at the edge: a recovery code with spaces around it is 11 characters. Zod-free: the code field's maxLength in the browser (decision 032). */
export const CODE_MAX = 32;
