import { z } from "~/modules/validation/z";
import { commitmentMessages, entitiesCopy as c } from "~/content/capital";
import { requestMessages } from "~/content/validation";
import { commitmentById, createCommitment, createCommitmentSchema, raiseCommitment, raiseCommitmentSchema } from "~/modules/commitments/commitments.server";
import { addEntityMember, addMemberSchema, createEntity, createEntitySchema, removeEntityMember } from "~/modules/entities/entities.server";
import { fundBySlug } from "~/modules/funds/funds.server";
import { AppError } from "~/modules/http/app-error";
import { answerForm, formFailure } from "~/modules/http/form-answer.server";
import { redirectWithFlash } from "~/modules/toast/flash.server";
import { formText, parseFormInput } from "~/modules/http/form-input.server";
import { findUserByEmail, type LpUser } from "~/modules/lp-users/lp-users.server";
import type { ToastInput } from "~/modules/toast/toast";
import type { IntentAnswer } from "~/components/kit/intent-form";

/**
 * The entity pages' forms, each one domain call shared with the JSON routes
 * (modules/entities, modules/commitments): create an entity (the list page),
 * add or remove a member, record or raise a commitment (an entity's page).
 * A person is named by their e-mail on the forms (the JSON takes the user id).
 * Success: data with a toast for an enhanced post, a 303 back with a flash
 * without JavaScript; a new entity goes to its page either way. A refusal is answered as data either way, so the page
 * shows the form again with its messages and what was typed.
 */

export const ENTITY_INTENTS = ["create-entity", "add-member", "remove-member", "add-commitment", "raise-commitment"] as const;
export type EntityIntent = (typeof ENTITY_INTENTS)[number];

/** What an entity form gets back (enhanced), or the page renders after a refused plain post. */
export type EntityFormAnswer = IntentAnswer & { intent?: EntityIntent };

const emailSchema = z.string().trim().toLowerCase().min(1, c.unknownEmail).max(254, c.unknownEmail);

/** The approved investor with this e-mail address, or a 400 on `field`. */
function investorByEmail(value: string, field: string): LpUser {
  const email = emailSchema.safeParse(value);
  const user = email.success ? findUserByEmail(email.data) : undefined;
  if (!user || user.isAdmin || user.status !== "approved") throw new AppError("bad_request", c.unknownEmail, { fields: { [field]: [c.unknownEmail] } });
  return user;
}

type Done = { toast: ToastInput; entityId?: string };

function run(admin: LpUser, intent: EntityIntent, entityId: string | null, formData: FormData): Done {
  const text = (name: string) => formText(formData, name);
  if (intent === "create-entity") {
    const owner = text("ownerEmail").trim() ? investorByEmail(text("ownerEmail"), "ownerEmail") : null;
    const input = parseFormInput(createEntitySchema, { name: text("name"), kind: text("kind"), members: owner ? [{ userId: owner.id, role: "owner" }] : [] });
    const entity = createEntity(admin, input);
    return { toast: c.toasts.created(entity.name), entityId: entity.id };
  }
  if (!entityId) throw new AppError("not_found", c.notFound.title);
  switch (intent) {
    case "add-member": {
      const user = investorByEmail(text("email"), "email");
      const input = parseFormInput(addMemberSchema, { userId: user.id, role: text("role") });
      addEntityMember(admin, entityId, input);
      return { toast: c.toasts.memberAdded(user.name) };
    }
    case "remove-member": {
      const entity = removeEntityMember(admin, entityId, text("userId"));
      return { toast: c.toasts.memberRemoved(`${text("name").slice(0, 200) || "The member"} (${entity.name})`) };
    }
    case "add-commitment": {
      const input = parseFormInput(createCommitmentSchema, { entityId, fund: text("fund"), amount: text("amount"), acceptedOn: text("acceptedOn") });
      const commitment = createCommitment(admin, input);
      return { toast: c.toasts.commitmentAdded(fundBySlug(commitment.fund as "fund-i").name) };
    }
    case "raise-commitment": {
      const input = parseFormInput(raiseCommitmentSchema, { amount: text("amount"), effectiveOn: text("effectiveOn") });
      // Only this page's entity's commitments: another's id is an unknown one here.
      if (commitmentById(text("commitmentId")).entityId !== entityId) throw new AppError("not_found", commitmentMessages.notFound);
      const commitment = raiseCommitment(admin, text("commitmentId"), input);
      return { toast: c.toasts.commitmentRaised(fundBySlug(commitment.fund as "fund-i").name) };
    }
  }
}

/** The typed text values a refused form shows again (never more than the fields' own limits). */
function typedValues(formData: FormData): Record<string, string> {
  const keep = ["name", "kind", "ownerEmail", "email", "role", "fund", "amount", "acceptedOn", "effectiveOn"];
  return Object.fromEntries(keep.map((name) => [name, formText(formData, name).slice(0, 254)]).filter(([, value]) => value !== ""));
}

/** Answer one of the entity pages' forms; `page` is where a plain post goes back to. */
export async function answerEntityIntent(admin: LpUser, page: string, entityId: string | null, formData: FormData) {
  const intent = ENTITY_INTENTS.find((name) => name === formData.get("intent"));
  type Extra = Omit<EntityFormAnswer, "status" | "toast">;
  if (!intent) {
    return answerForm<Extra>(formData, {
      httpStatus: 400,
      toast: { title: c.toasts.failed, description: requestMessages.unknownAction, variant: "destructive" },
    });
  }
  // A row's form (a commitment's raise, a member's removal) is told apart by its row.
  const formKey = formText(formData, "commitmentId") || formText(formData, "userId") || undefined;
  try {
    const done = run(admin, intent, entityId, formData);
    // A new entity: its page, with JavaScript too (a redirect the fetcher follows, the toast in the flash).
    if (done.entityId) return redirectWithFlash(`${page}/${done.entityId}`, { toast: done.toast }, { status: 303 });
    return answerForm<Extra>(formData, { httpStatus: 200, toast: done.toast, redirectTo: page, extra: { intent, formKey } });
  } catch (error) {
    const failure = formFailure(error);
    return answerForm<Extra>(formData, {
      httpStatus: failure.httpStatus,
      toast: { title: c.toasts.failed, description: failure.message, variant: "destructive" },
      extra: { intent, formKey, fields: failure.fields ?? { form: [failure.message] }, values: typedValues(formData) },
    });
  }
}
