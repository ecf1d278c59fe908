import { accountMessages } from "./accounts";

/**
 * What a form or an endpoint says when it refuses an input (SPEC.md §8 where it
 * quotes them): the field messages of the input rules, the request refusals
 * and the rate-limit answers. The rules themselves (lengths, formats) live in
 * the modules' zod-free constants and schemas; a message that states a limit
 * takes it as a parameter (content imports no module).
 */

export const INVALID_EMAIL = "Invalid email address";
export const ALREADY_SUBSCRIBED = "Email already subscribed";

export const accountFieldMessages = {
  passwordRequired: "Password is required",
  passwordTooShort: "Password must be at least 8 characters",
  passwordTooLong: "Password must be at most 72 bytes (about 72 letters, fewer with accents or emoji)",
  /** A sign-in password far beyond any real one (never hashed). */
  passwordInputTooLong: "Password is too long",
  nameRequired: "Name is required",
  nameTooLong: "Name is too long",
  companyTooLong: "Company is too long",
  statusInvalid: "Status must be approved or rejected",
  resetLinkInvalid: "This reset link is invalid or has expired.",
} as const;

export const fundAccessMessages = {
  nameRequired: "Name is required",
  nameTooLong: "Name is too long",
  companyTooLong: "Company is too long",
  fundInvalid: "Fund must be fund-i or fund-ii",
  accreditedRequired: "You must confirm that you are an accredited/qualified investor",
  phoneInvalid: "Enter a valid phone number",
  tokenRequired: "Access token required",
  tokenInvalid: "Invalid access token",
  validationFailed: "Failed to validate access",
  registrationFailed: "An error occurred during registration",
  requestNotFound: "Access request not found",
  accessWithdrawn: "Access to these documents has been withdrawn. Please contact us.",
} as const;

export const pitchMessages = {
  name: "Name is required",
  email: INVALID_EMAIL,
  company: "Company is required",
  stage: "Please choose a stage",
  deckUrl: "Invalid URL",
  message: "Message is required",
  deckType: "The deck must be a PDF file",
  deckEmpty: "The deck file is empty",
  deckTooLarge: "The deck must be at most 25 MB",
  deckNotFound: "Deck not found",
} as const;

export const uploadMessages = {
  titleRequired: "Title is required",
  titleTooLong: (max: number) => `Title must be at most ${max} characters`,
  descriptionTooLong: (max: number) => `Description must be at most ${max} characters`,
  categoryInvalid: "Choose one of the listed categories",
  fundInvalid: fundAccessMessages.fundInvalid,
  fileRequired: "File is required",
  fileEmpty: "The file is empty",
  fileTooLarge: "File size must be less than 50MB",
  fileType: "File type must be PDF, Word, Excel, or PowerPoint",
  notMultipart: "Content-Type must be multipart/form-data",
  malformed: "The upload could not be read. Please try again.",
  oneFileOnly: "Upload one file at a time",
  tooManyFields: "Too many form fields",
  fieldTooLong: (name: string) => `${name} is too long`,
  storageFull: "There is no room to store this file right now. Please try again later, or tell the site's administrator.",
  documentNotFound: "Document not found",
  audienceInvalid: "Audience must be 'all' or 'selected'",
  recipientsRequired: "Choose at least one investor, or publish to all approved investors",
  recipientsTooMany: (max: number) => `Choose at most ${max.toLocaleString("en-US")} investors, or publish to all approved investors`,
  recipientsInvalid: (count: number) =>
    count === 1
      ? "One chosen investor is not an approved investor (unknown, pending, rejected or an admin)"
      : `${count} chosen investors are not approved investors (unknown, pending, rejected or admins)`,
  watermarkInvalid: "watermark must be 'on' (a form) or true or false (JSON), or left out",
  watermarkPdfOnly: "Only PDF files can be stamped with the viewer's name. Upload a PDF, or turn the stamp off.",
  fileNotFound: "File not found",
  rangeNotSatisfiable: "Range not satisfiable",
} as const;

/** Refusals of a request as a whole (JSON endpoints, guards, unreadable bodies). */
export const requestMessages = {
  authRequired: "Authentication required",
  notApproved: "Your account is not approved",
  adminRequired: "Admin access required",
  notJson: "Content-Type must be application/json",
  bodyTooLarge: "Request body is too large",
  invalidJson: "Request body must be valid JSON",
  notJsonObject: "Request body must be a JSON object",
  invalidRequest: "Invalid request",
  methodNotAllowed: "Method not allowed",
  notFound: "Not found",
  unknownAction: "Unknown action",
  formUnreadable: "The form could not be read. Please try again.",
  /** A form whose action failed unexpectedly (the user can try again at once). */
  formFailed: "Something went wrong. Please try again.",
  /** A JSON endpoint that failed unexpectedly. */
  serverError: "Something went wrong. Please try again later.",
} as const;

/** The answer of a rate limit, per limited action (429, with Retry-After). */
export const rateLimitMessages = {
  newsletter: "Too many subscription attempts. Please try again later.",
  pitch: "Too many pitch submissions. Please try again later.",
  /** Pitch decks from one network (an IPv6 /64, or an IPv4 address) in a day. */
  pitchDeck: "Too many pitch decks from your network today. Please try again tomorrow, or send a link to your deck instead.",
  /** Pitch decks from everyone in a day. */
  pitchDeckAll: "We cannot take more pitch deck uploads today. Please try again tomorrow, or send a link to your deck instead.",
  login: accountMessages.tooManyLogins,
  register: accountMessages.tooManyRegistrations,
  reset: accountMessages.tooManyResets,
  resetSubmit: "Too many attempts. Please try again later.",
  fundAccess: "Too many access requests. Please try again later.",
  tokenCheck: "Too many attempts. Please try again later.",
  twoFactor: "Too many two-factor attempts. Please try again later.",
  registerConfirm: accountMessages.tooManyConfirmations,
} as const;
