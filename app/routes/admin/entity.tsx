import { BackLink } from "~/components/kit/back-link";
import type { Route } from "./+types/entity";
import { PageSection } from "~/components/kit/page-section";
import { Badge, DataTable, OneLine, RowMenu, type DataColumn } from "~/components/kit/data-table";
import { ErrorList, Field, SelectField, StatusButton } from "~/components/kit/fields";
import { useIntentForm } from "~/components/kit/intent-form";
import { EnhancedForm } from "~/components/ui/enhanced-form";
import { entitiesCopy as c, entityKindLabels, entityRoleLabels } from "~/content/capital";
import { LedgerTable } from "~/components/capital/ledger-table";
import { ADMIN_PATHS, ledgerEntryPath } from "~/modules/admin/paths";
import { entityTransactions } from "~/modules/capital-account/ledger.server";
import { requireAdmin } from "~/modules/auth/guards.server";
import { amountExample, formatDecimal } from "~/modules/capital/money";
import { commitmentsOfEntities } from "~/modules/commitments/commitments.server";
import { adminDate } from "~/modules/dates/format";
import { adminEntity } from "~/modules/entities/entities.server";
import { listFunds } from "~/modules/funds/funds.server";
import { isAppError } from "~/modules/http/app-error";
import { readFormData } from "~/modules/http/form-data.server";
import { notFound } from "~/modules/http/not-found";
import { pageMeta } from "~/modules/seo/meta";
import { ENTITY_ROLES } from "../../../db/schema";
import { ledgerRowView } from "../lp/ledger-view.server";
import { answerEntityIntent, type EntityFormAnswer } from "./entity-actions.server";

/** The entity's newest transactions the page shows. */
const LEDGER_SHOWN = 20;

const LIST = ADMIN_PATHS.entities;

/** The entity's id as a path segment: anything else is the unknown id's 404. */
const ID = /^[\w-]{1,100}$/;

function missing(): never {
  throw notFound({ title: c.notFound.title, message: c.notFound.message, back: { to: LIST, label: c.detail.back } });
}

/**
 * /admin/entities/{id}: an entity's members (add one by e-mail, remove one
 * after asking) and its commitments (record one per fund, raise one at a
 * subsequent close), each form one domain call (entity-actions.server.ts).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  if (!ID.test(params.id)) missing();
  let entity;
  try {
    entity = adminEntity(params.id);
  } catch (error) {
    if (isAppError(error) && error.status === 404) missing();
    throw error;
  }
  const funds = listFunds();
  const names = new Map<string, string>(funds.map((f) => [f.slug, f.name]));
  const held = commitmentsOfEntities([entity.id]);
  const commitments = held.map((x) => ({
    id: x.id,
    fund: names.get(x.fund) ?? x.fund,
    amount: formatDecimal(x.amount, x.currency),
    accepted: adminDate(new Date(`${x.acceptedOn}T12:00:00Z`)),
    history: x.history.map((h) => c.detail.raisedOn(formatDecimal(h.amount, x.currency), adminDate(new Date(`${h.effectiveOn}T12:00:00Z`)))),
    example: amountExample(x.currency),
  }));
  const committed = new Set<string>(held.map((x) => x.fund));
  return {
    entity: { id: entity.id, name: entity.name, kind: entityKindLabels[entity.kind], created: adminDate(entity.createdAt) },
    members: entity.members.map((m) => ({ ...m, roleLabel: entityRoleLabels[m.role] })),
    commitments,
    transactions: entityTransactions(entity.id, LEDGER_SHOWN).map((row) => ledgerRowView(row, new Map())),
    openFunds: funds.filter((f) => !committed.has(f.slug)).map((f) => ({ slug: f.slug, name: f.name, example: amountExample(f.currency) })),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  if (!ID.test(params.id)) missing();
  return answerEntityIntent(admin, `${LIST}/${params.id}`, params.id, await readFormData(request));
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: args.data?.entity.name ?? c.notFound.title, description: c.intro, path: `${LIST}/${args.params.id}`, noindex: true });

type Loaded = Route.ComponentProps["loaderData"];
type Member = Loaded["members"][number];
type Commitment = Loaded["commitments"][number];

/** The form's message that belongs to no field (e.g. the last owner cannot go). */
function FormMessage({ id, errors }: { id: string; errors: Record<string, string[]> | undefined }) {
  return <ErrorList id={id} errors={errors?.form} />;
}

function RemoveMember({ member, action }: { member: Member; action: string }) {
  const { fetcher, errors, busy } = useIntentForm<EntityFormAnswer>("remove-member", member.userId);
  return (
    <RowMenu name={member.name} open={errors ? true : undefined}>
      <details className="px-3 py-2 text-sm" open={errors ? true : undefined}>
        <summary className="cursor-pointer font-medium text-red-700 dark:text-red-300">{c.detail.remove}</summary>
        <EnhancedForm fetcher={fetcher} action={action} className="mt-2 space-y-2">
          <input type="hidden" name="intent" value="remove-member" />
          <input type="hidden" name="userId" value={member.userId} />
          <input type="hidden" name="name" value={member.name} />
          <p className="max-w-64 text-slate-700 dark:text-slate-200">{c.detail.removeConfirm(member.name)}</p>
          <StatusButton variant="danger" pending={busy}>
            {c.detail.confirm}
          </StatusButton>
          <FormMessage id={`remove-${member.userId}-error`} errors={errors} />
        </EnhancedForm>
      </details>
    </RowMenu>
  );
}

function AddMemberForm({ action }: { action: string }) {
  const { fetcher, errors, typed, busy } = useIntentForm<EntityFormAnswer>("add-member");
  return (
    <EnhancedForm fetcher={fetcher} action={action} aria-labelledby="add-member-title" className="mt-6 grid max-w-2xl gap-4 sm:grid-cols-[1fr_10rem_auto] sm:items-start">
      <h3 id="add-member-title" className="text-base font-semibold sm:col-span-3">
        {c.detail.addMember}
      </h3>
      <input type="hidden" name="intent" value="add-member" />
      <Field id="member-email" name="email" type="email" label={c.detail.memberEmail} hint={c.detail.memberEmailHint} errors={errors?.email ?? errors?.userId} required maxLength={254} defaultValue={typed?.email ?? ""} />
      <SelectField id="member-role" name="role" label={c.detail.role} errors={errors?.role} defaultValue={typed?.role ?? "viewer"}>
        {ENTITY_ROLES.map((role) => (
          <option key={role} value={role}>
            {entityRoleLabels[role]}
          </option>
        ))}
      </SelectField>
      <StatusButton variant="secondary" pending={busy} className="sm:mt-6">
        {c.detail.addMemberSubmit}
      </StatusButton>
      <FormMessage id="add-member-error" errors={errors?.email || errors?.userId ? undefined : errors} />
    </EnhancedForm>
  );
}

function RaiseForm({ commitment, action }: { commitment: Commitment; action: string }) {
  const { fetcher, errors, typed, busy } = useIntentForm<EntityFormAnswer>("raise-commitment", commitment.id);
  return (
    <RowMenu name={commitment.fund} open={errors ? true : undefined}>
      <EnhancedForm fetcher={fetcher} action={action} className="space-y-3 px-3 py-2">
        <input type="hidden" name="intent" value="raise-commitment" />
        <input type="hidden" name="commitmentId" value={commitment.id} />
        <p className="text-sm font-medium">{c.detail.raise}</p>
        <Field id={`raise-${commitment.id}-amount`} name="amount" inputMode="decimal" label={c.detail.raiseAmount} hint={c.detail.amountHint(commitment.example)} errors={errors?.amount} required defaultValue={typed?.amount ?? ""} />
        <Field id={`raise-${commitment.id}-date`} name="effectiveOn" type="date" label={c.detail.effectiveOn} errors={errors?.effectiveOn} required defaultValue={typed?.effectiveOn ?? ""} />
        <StatusButton variant="secondary" pending={busy}>
          {c.detail.raiseSubmit}
        </StatusButton>
        <FormMessage id={`raise-${commitment.id}-error`} errors={errors?.amount || errors?.effectiveOn ? undefined : errors} />
      </EnhancedForm>
    </RowMenu>
  );
}

function AddCommitmentForm({ funds, action }: { funds: Loaded["openFunds"]; action: string }) {
  const { fetcher, errors, typed, busy } = useIntentForm<EntityFormAnswer>("add-commitment");
  if (!funds.length) return null;
  return (
    <EnhancedForm fetcher={fetcher} action={action} aria-labelledby="add-commitment-title" className="mt-6 grid max-w-2xl gap-4 sm:grid-cols-2 sm:items-start">
      <h3 id="add-commitment-title" className="text-base font-semibold sm:col-span-2">
        {c.detail.addCommitment}
      </h3>
      <input type="hidden" name="intent" value="add-commitment" />
      <SelectField id="commitment-fund" name="fund" label={c.detail.fund} errors={errors?.fund} defaultValue={typed?.fund ?? funds[funds.length - 1]!.slug}>
        {funds.map((fund) => (
          <option key={fund.slug} value={fund.slug}>
            {fund.name}
          </option>
        ))}
      </SelectField>
      <Field id="commitment-amount" name="amount" inputMode="decimal" label={c.detail.amount} hint={c.detail.amountHint(funds[0]!.example)} errors={errors?.amount} required defaultValue={typed?.amount ?? ""} />
      <Field id="commitment-accepted" name="acceptedOn" type="date" label={c.detail.acceptedOn} errors={errors?.acceptedOn} required defaultValue={typed?.acceptedOn ?? ""} />
      <div className="sm:col-span-2">
        <StatusButton variant="secondary" pending={busy}>
          {c.detail.addCommitmentSubmit}
        </StatusButton>
      </div>
      <FormMessage id="add-commitment-error" errors={errors?.fund || errors?.amount || errors?.acceptedOn ? undefined : errors} />
    </EnhancedForm>
  );
}

export default function EntityPage({ loaderData, params }: Route.ComponentProps) {
  const { entity, members, commitments, transactions, openFunds } = loaderData;
  const action = `${LIST}/${params.id}`;
  const memberColumns: DataColumn<Member>[] = [
    { key: "name", header: c.detail.memberColumns.name, rowHeader: true, card: "primary", cell: (m) => <OneLine title={m.name}>{m.name}</OneLine> },
    { key: "email", header: c.detail.memberColumns.email, cell: (m) => <OneLine title={m.email}>{m.email}</OneLine> },
    { key: "role", header: c.detail.memberColumns.role, width: "w-28", card: "badge", cell: (m) => <Badge tone={m.role === "owner" ? "info" : "neutral"}>{m.roleLabel}</Badge> },
    { key: "actions", header: c.detail.memberColumns.actions, headerHidden: true, width: "w-16", card: "actions", cell: (m) => <RemoveMember member={m} action={action} /> },
  ];
  const commitmentColumns: DataColumn<Commitment>[] = [
    { key: "fund", header: c.detail.commitmentColumns.fund, rowHeader: true, card: "primary", cell: (x) => x.fund },
    { key: "amount", header: c.detail.commitmentColumns.amount, className: "tabular-nums", cell: (x) => x.amount },
    { key: "accepted", header: c.detail.commitmentColumns.accepted, width: "w-32", card: "meta", cell: (x) => x.accepted },
    {
      key: "history",
      header: c.detail.commitmentColumns.history,
      cell: (x) =>
        x.history.map((h) => (
          <span key={h} className="block whitespace-nowrap">
            {h}
          </span>
        )),
    },
    { key: "actions", header: c.detail.memberColumns.actions, headerHidden: true, width: "w-16", card: "actions", cell: (x) => <RaiseForm commitment={x} action={action} /> },
  ];
  return (
    <>
      <BackLink to={LIST}>{c.detail.back}</BackLink>
      <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">{entity.name}</h1>
      <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-600 dark:text-slate-300">
        <div className="flex gap-1.5">
          <dt>{c.detail.kind}:</dt>
          <dd className="font-medium text-slate-900 dark:text-white">{entity.kind}</dd>
        </div>
        <div className="flex gap-1.5">
          <dt>{c.detail.created}:</dt>
          <dd className="font-medium text-slate-900 dark:text-white">{entity.created}</dd>
        </div>
      </dl>
      <PageSection id="members" title={c.detail.members} intro={c.detail.membersIntro}>
        <DataTable label={c.detail.members} rows={members} rowKey={(m) => m.userId} rowTestId="member-row" columns={memberColumns} />
        <AddMemberForm action={action} />
      </PageSection>
      <PageSection id="commitments" title={c.detail.commitments} intro={c.detail.commitmentsIntro}>
        {commitments.length ? (
          <DataTable label={c.detail.commitments} rows={commitments} rowKey={(x) => x.id} rowTestId="commitment-row" columns={commitmentColumns} />
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-300">{c.detail.noCommitments}</p>
        )}
        <AddCommitmentForm funds={openFunds} action={action} />
      </PageSection>
      <PageSection id="ledger" title={c.detail.ledger} intro={c.detail.ledgerIntro(LEDGER_SHOWN)}>
        {transactions.length ? (
          <LedgerTable label={c.detail.ledger} rows={transactions} rowTestId="entity-ledger-row" entryHref={ledgerEntryPath} />
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-300">{c.detail.noLedger}</p>
        )}
      </PageSection>
    </>
  );
}
