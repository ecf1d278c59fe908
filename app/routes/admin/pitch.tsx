import { ArrowLeft } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { data, Form, Link, useActionData, useFetcher, useLocation, useNavigate, useSubmit } from "react-router";
import type { Route } from "./+types/pitch";
import { PageSection } from "~/components/kit/page-section";
import { EnhancedForm } from "~/components/ui/enhanced-form";
import { ErrorList, Field, SelectField, StatusButton, TextareaField } from "~/components/kit/fields";
import { Button } from "~/components/ui/form";
import { toast } from "~/components/ui/toast-store";
import { fillPitchTemplate, PITCH_TEMPLATE_KEYS, pitchListCopy, pitchMessages, pitchPageCopy as c, pitchStatusLabels, pitchTemplates } from "~/content/pitch-inbox";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { now } from "~/modules/config/clock.server";
import { getEnv } from "~/modules/config/env.server";
import { adminDateTime } from "~/modules/dates/format";
import { formatMegabytes } from "~/modules/documents/constants";
import { isAppError } from "~/modules/http/app-error";
import { notFound } from "~/modules/http/not-found";
import { readFormData } from "~/modules/http/form-data.server";
import { clockText, dueDayText, findPitch, listPitchAdmins, pitchTimeline, statusLabel, type PitchEvent } from "~/modules/pitch-inbox/inbox.server";
import { BODY_MAX, NOTE_MAX, PITCH_STATUS_VALUES, SUBJECT_MAX, type PitchStatus } from "~/modules/pitch-inbox/schema";
import { pageMeta } from "~/modules/seo/meta";
import { answerPitchIntent, type PitchFormAnswer, type PitchIntent } from "./pitch-actions.server";

const LIST = ADMIN_PATHS.pitches;

/**
 * /admin/pitches/{id}: the submission (its deck link, and the uploaded deck through
 * /admin/pitches/{id}/deck), status, owner, internal notes, a reply to the founder from a
 * template (?template=… fills the form, also without JavaScript) and the timeline of
 * it all, oldest first, each entry with who and when.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  let pitch;
  try {
    pitch = findPitch(params.id);
  } catch (error) {
    if (isAppError(error) && error.status === 404) throw notFound({ title: pitchMessages.notFound, message: c.gone, back: { to: LIST, label: c.back } });
    throw error;
  }
  const at = now();
  const admins = listPitchAdmins();
  const names = new Map(admins.map((admin) => [admin.id, admin.name]));
  const ownerName = (id: string | null) => (id ? (names.get(id) ?? pitchListCopy.formerAdmin) : c.owner.nobody);
  const statusName = (value: string | null) => (value && value in pitchStatusLabels ? pitchStatusLabels[value as PitchStatus] : (value ?? ""));
  const describe = (event: PitchEvent): string => {
    switch (event.kind) {
      case "status":
        return c.timeline.status(statusName(event.fromValue), statusName(event.toValue));
      case "owner":
        return c.timeline.owner(ownerName(event.fromValue), ownerName(event.toValue));
      case "note":
        return c.timeline.note;
      case "reply":
        return c.timeline.reply(event.subject ?? "");
      case "deck_opened":
        return c.timeline.deckOpened;
    }
  };
  const events = pitchTimeline(pitch.id).map((event) => ({
    id: event.id,
    kind: event.kind,
    text: describe(event),
    who: event.actorId && names.has(event.actorId) ? `${names.get(event.actorId)} (${event.actorEmail ?? ""})` : (event.actorEmail ?? c.timeline.unknownActor),
    when: adminDateTime(event.at),
    whenIso: event.at.toISOString(),
    body: event.kind === "note" || event.kind === "reply" ? event.body : null,
  }));
  const template = PITCH_TEMPLATE_KEYS.find((key) => key === new URL(request.url).searchParams.get("template")) ?? null;
  return {
    pitch: {
      id: pitch.id,
      name: pitch.name,
      email: pitch.email,
      company: pitch.company,
      stage: pitch.stage,
      message: pitch.message,
      deckUrl: pitch.deckUrl && /^https?:\/\//i.test(pitch.deckUrl) ? pitch.deckUrl : null,
      deckText: pitch.deckUrl,
      deck: pitch.deckPath ? { name: pitch.deckName ?? "", size: pitch.deckSize === null ? "" : formatMegabytes(pitch.deckSize) } : null,
      submitted: adminDateTime(pitch.createdAt),
      submittedIso: pitch.createdAt.toISOString(),
      status: pitch.status,
      statusLabel: statusLabel(pitch.status),
      ownerId: pitch.ownerId,
      due: dueDayText(pitch.dueAt),
      clock: clockText(pitch, at),
    },
    admins: admins.map((admin) => ({ id: admin.id, name: admin.name })),
    events,
    template,
    prefill: template ? fillPitchTemplate(template, pitch) : null,
    inbox: getEnv().FIRM_INBOX,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  // The page's own address is where the answer goes back to: only an id can make one.
  if (!/^[\w-]{1,100}$/.test(params.id)) throw data({ error: pitchMessages.notFound }, { status: 404 });
  return answerPitchIntent(admin, params.id, await readFormData(request));
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.data ? c.title(args.data.pitch.company) : pitchMessages.notFound,
    description: pitchListCopy.title,
    path: `${LIST}/${args.params.id}`,
    noindex: true,
  });

type Loaded = Route.ComponentProps["loaderData"];

function BackLink() {
  return (
    <Link to={LIST} className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
      <ArrowLeft aria-hidden="true" className="size-4" />
      {c.back}
    </Link>
  );
}

/**
 * One form's fetcher and answer: the enhanced answer, else (without JavaScript) the
 * refused post's answer rendered with the page; toasts of enhanced answers shown.
 */
function usePitchForm(intent: PitchIntent) {
  const fetcher = useFetcher<PitchFormAnswer>({ key: `pitch-${intent}` });
  const actionData = useActionData<PitchFormAnswer>();
  const answer = fetcher.data ?? (actionData?.intent === intent ? actionData : undefined);
  useEffect(() => {
    if (fetcher.data?.toast) toast(fetcher.data.toast);
  }, [fetcher.data]);
  const errors = answer?.status === "error" ? answer.fields : undefined;
  return { fetcher, answer, errors, busy: fetcher.state !== "idle" };
}

function FormError({ id, errors }: { id: string; errors: Record<string, string[]> | undefined }) {
  return <ErrorList id={id} errors={errors?.form} />;
}

/** One choice saved on its own (the pitch's status, its owner): a labelled select and its button. */
function ChoiceForm({
  intent,
  name,
  value,
  options,
  copy,
  action,
}: {
  intent: "status" | "owner";
  name: "status" | "ownerId";
  value: string;
  options: readonly { value: string; label: string }[];
  copy: { label: string; save: string; saving: string };
  action: string;
}) {
  const { fetcher, errors, busy } = usePitchForm(intent);
  const id = `pitch-${intent}`;
  return (
    <EnhancedForm fetcher={fetcher} action={action} className="flex flex-wrap items-end gap-3">
      <input type="hidden" name="intent" value={intent} />
      <SelectField key={value} id={id} name={name} label={copy.label} errors={errors?.[name]} defaultValue={value} className="min-w-48">
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </SelectField>
      <StatusButton variant="secondary" pending={busy} pendingLabel={copy.saving}>
        {copy.save}
      </StatusButton>
      <FormError id={`${id}-form-error`} errors={errors} />
    </EnhancedForm>
  );
}

const STATUS_OPTIONS = PITCH_STATUS_VALUES.map((status) => ({ value: status, label: pitchStatusLabels[status] }));

function StatusForm({ pitch, action }: { pitch: Loaded["pitch"]; action: string }) {
  return <ChoiceForm intent="status" name="status" value={pitch.status} options={STATUS_OPTIONS} copy={c.status} action={action} />;
}

function OwnerForm({ pitch, admins, action }: { pitch: Loaded["pitch"]; admins: Loaded["admins"]; action: string }) {
  const options = [{ value: "", label: c.owner.nobody }, ...admins.map((admin) => ({ value: admin.id, label: admin.name }))];
  return <ChoiceForm intent="owner" name="ownerId" value={pitch.ownerId ?? ""} options={options} copy={c.owner} action={action} />;
}

/** A text form (note, reply) starts empty again after it was sent with JavaScript. */
function useGeneration(answer: PitchFormAnswer | undefined, enhanced: boolean) {
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (enhanced && answer?.status === "success") setGeneration((g) => g + 1);
  }, [answer, enhanced]);
  return generation;
}

function NoteForm({ action }: { action: string }) {
  const { fetcher, answer, errors, busy } = usePitchForm("note");
  const generation = useGeneration(fetcher.data, true);
  const typed = answer?.status === "error" ? answer.values?.note : undefined;
  return (
    <EnhancedForm key={generation} fetcher={fetcher} action={action}>
      <input type="hidden" name="intent" value="note" />
      <TextareaField
        id="pitch-note"
        name="note"
        label={c.note.label}
        hint={c.note.hint}
        errors={errors?.note}
        rows={3}
        required
        maxLength={NOTE_MAX}
        defaultValue={typed ?? ""}
      />
      <FormError id="pitch-note-form-error" errors={errors} />
      <StatusButton variant="secondary" pending={busy} pendingLabel={c.note.adding} className="mt-3">
        {c.note.add}
      </StatusButton>
    </EnhancedForm>
  );
}

function TemplatePicker({ template, action }: { template: string | null; action: string }) {
  const submit = useSubmit();
  return (
    <Form
      method="get"
      action={action}
      className="flex flex-wrap items-end gap-3"
      onChange={(event) => {
        // With JavaScript the template fills the form as soon as it is chosen.
        const form = event.currentTarget;
        if (new FormData(form).get("template")) void submit(form, { replace: true, preventScrollReset: true });
      }}
    >
      <SelectField key={template ?? ""} id="pitch-template" name="template" label={c.reply.template} defaultValue={template ?? ""} className="min-w-60">
        <option value="">{c.reply.noTemplate}</option>
        {PITCH_TEMPLATE_KEYS.map((key) => (
          <option key={key} value={key}>
            {pitchTemplates[key].label}
          </option>
        ))}
      </SelectField>
      <Button type="submit" variant="secondary">
        {c.reply.useTemplate}
      </Button>
    </Form>
  );
}

function ReplyForm({ action, template, prefill }: { action: string; template: string | null; prefill: { subject: string; body: string } | null }) {
  const { fetcher, answer, errors, busy } = usePitchForm("reply");
  const generation = useGeneration(fetcher.data, true);
  const { search } = useLocation();
  const navigate = useNavigate();
  // Sent with JavaScript: the chosen template leaves the address too.
  useEffect(() => {
    if (fetcher.data?.status === "success" && search) void navigate(action, { replace: true, preventScrollReset: true });
    // Only a new answer moves on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.data]);
  const typed = answer?.status === "error" ? answer.values : undefined;
  return (
    <EnhancedForm key={`${template ?? ""}-${generation}`} fetcher={fetcher} action={action} className="mt-4 space-y-3">
      <input type="hidden" name="intent" value="reply" />
      <Field
        id="pitch-reply-subject"
        name="subject"
        label={c.reply.subject}
        errors={errors?.subject}
        required
        maxLength={SUBJECT_MAX}
        defaultValue={typed?.subject ?? prefill?.subject ?? ""}
        autoComplete="off"
      />
      <TextareaField
        id="pitch-reply-body"
        name="body"
        label={c.reply.body}
        errors={errors?.body}
        rows={12}
        required
        maxLength={BODY_MAX}
        defaultValue={typed?.body ?? prefill?.body ?? ""}
      />
      <FormError id="pitch-reply-form-error" errors={errors} />
      <StatusButton pending={busy} pendingLabel={c.reply.sending}>
        {c.reply.send}
      </StatusButton>
    </EnhancedForm>
  );
}

function Timeline({ pitch, events }: { pitch: Loaded["pitch"]; events: Loaded["events"] }) {
  return (
    <PageSection boxed id="pitch-timeline" title={c.timeline.title}>
      <p className="text-sm text-slate-600 dark:text-slate-300">{c.timeline.caption}</p>
      <ol className="mt-3 space-y-3" data-testid="pitch-timeline">
        <li className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
          <p className="font-medium">{c.timeline.received(`${pitch.name} (${pitch.email})`)}</p>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            <time dateTime={pitch.submittedIso}>{pitch.submitted}</time>
          </p>
        </li>
        {events.map((event) => (
          <li key={event.id} className="rounded-lg border border-slate-200 p-3 dark:border-slate-800" data-testid="pitch-event" data-kind={event.kind}>
            <p className="font-medium">{event.text}</p>
            <p className="text-sm text-slate-600 dark:text-slate-300">
              {c.timeline.by(event.who)} · <time dateTime={event.whenIso}>{event.when}</time>
            </p>
            {event.body ? <p className="mt-2 text-sm whitespace-pre-wrap break-words">{event.body}</p> : null}
          </li>
        ))}
      </ol>
    </PageSection>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[10rem_1fr]">
      <dt className="text-sm font-medium text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

export default function PitchPage({ loaderData }: Route.ComponentProps) {
  const { pitch, admins, events, template, prefill, inbox } = loaderData;
  const action = `${LIST}/${pitch.id}`;
  const s = c.submission;
  return (
    <div>
      <BackLink />
      <h1 className="mt-4 text-3xl font-bold tracking-tight">{c.title(pitch.company)}</h1>
      <p className="mt-2 text-slate-700 dark:text-slate-200">
        {pitch.statusLabel} · {pitch.clock}
      </p>
      <div className="mt-6 grid gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="space-y-6">
          <PageSection boxed id="pitch-submission" title={s.title}>
            <dl className="space-y-2">
              <Detail label={s.founder}>{pitch.name}</Detail>
              <Detail label={s.email}>
                <a href={`mailto:${pitch.email}`} className="text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
                  {pitch.email}
                </a>
              </Detail>
              <Detail label={s.company}>{pitch.company}</Detail>
              <Detail label={s.stage}>{pitch.stage}</Detail>
              <Detail label={s.deckUrl}>
                {pitch.deckUrl ? (
                  <a href={pitch.deckUrl} rel="noopener noreferrer nofollow" target="_blank" className="break-all text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
                    {pitch.deckUrl}
                  </a>
                ) : (
                  (pitch.deckText ?? s.noDeckUrl)
                )}
              </Detail>
              {pitch.deck ? (
                <Detail label={s.deckFile}>
                  <a href={`${action}/deck`} className="font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
                    {s.openDeck}
                  </a>
                  <span className="ml-2 text-sm text-slate-600 dark:text-slate-300">
                    {pitch.deck.name} {pitch.deck.size ? `(${pitch.deck.size})` : ""}
                  </span>
                </Detail>
              ) : null}
              <Detail label={s.submitted}>
                <time dateTime={pitch.submittedIso}>{pitch.submitted}</time>
              </Detail>
              <Detail label={s.due}>{pitch.due}</Detail>
              <Detail label={s.clock}>{pitch.clock}</Detail>
              <Detail label={s.message}>
                <p className="whitespace-pre-wrap">{pitch.message}</p>
              </Detail>
            </dl>
            <p className="mt-3 text-xs text-slate-600 dark:text-slate-300">{s.timesInUtc}</p>
          </PageSection>
          <PageSection boxed id="pitch-reply" title={c.reply.title}>
            <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">{c.reply.intro(pitch.email, inbox)}</p>
            <TemplatePicker template={template} action={action} />
            <ReplyForm action={action} template={template} prefill={prefill} />
          </PageSection>
        </div>
        <div className="space-y-6">
          <PageSection boxed id="pitch-status-section" title={c.status.title}>
            <StatusForm pitch={pitch} action={action} />
          </PageSection>
          <PageSection boxed id="pitch-owner-section" title={c.owner.title}>
            <OwnerForm pitch={pitch} admins={admins} action={action} />
          </PageSection>
          <PageSection boxed id="pitch-note-section" title={c.note.title}>
            <NoteForm action={action} />
          </PageSection>
          <Timeline pitch={pitch} events={events} />
        </div>
      </div>
    </div>
  );
}
