import { Link } from "react-router";
import type { Route } from "./+types/entities";
import { AdminPageHeader, adminPageTitle } from "~/components/admin/page-header";
import { DataTable, OneLine, type DataColumn } from "~/components/kit/data-table";
import { EmptyState } from "~/components/kit/empty-state";
import { ErrorList, Field, SelectField, StatusButton } from "~/components/kit/fields";
import { useIntentForm } from "~/components/kit/intent-form";
import { EnhancedForm } from "~/components/ui/enhanced-form";
import { lastPageOf, LIST_PAGE_SIZE, pageHref, Pager } from "~/components/ui/pager";
import { entitiesCopy as c, entityKindLabels } from "~/content/capital";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { formatDecimal } from "~/modules/capital/money";
import { commitmentsOfEntities } from "~/modules/commitments/commitments.server";
import { adminDate } from "~/modules/dates/format";
import { listEntitiesPage } from "~/modules/entities/entities.server";
import { listFunds } from "~/modules/funds/funds.server";
import { readFormData } from "~/modules/http/form-data.server";
import { pageMeta } from "~/modules/seo/meta";
import { ENTITY_KINDS } from "../../../db/schema";
import { answerEntityIntent, type EntityFormAnswer } from "./entity-actions.server";

const PAGE = ADMIN_PATHS.entities;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: adminPageTitle("entities"), description: c.intro, path: PAGE, noindex: true });

/**
 * /admin/entities: every investing entity by name (LIST_PAGE_SIZE a page,
 * `?page=N`; past the end shows the last page), its members and commitments,
 * and the form that creates one with its first owner.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const asked = Math.max(1, Math.floor(Number(new URL(request.url).searchParams.get("page")) || 1));
  const windowOf = (page: number) => ({ offset: (page - 1) * LIST_PAGE_SIZE, limit: LIST_PAGE_SIZE });
  let page = asked;
  let result = listEntitiesPage(windowOf(page));
  if (page > lastPageOf(result.total)) {
    page = lastPageOf(result.total);
    result = listEntitiesPage(windowOf(page));
  }
  const funds = new Map<string, string>(listFunds().map((f) => [f.slug, f.name]));
  const commitments = commitmentsOfEntities(result.rows.map((e) => e.id));
  const rows = result.rows.map((entity) => ({
    id: entity.id,
    name: entity.name,
    kind: entityKindLabels[entity.kind],
    owners: entity.members.filter((m) => m.role === "owner").map((m) => m.name),
    memberCount: entity.members.length,
    commitments: commitments
      .filter((x) => x.entityId === entity.id)
      .map((x) => `${funds.get(x.fund) ?? x.fund} · ${formatDecimal(x.amount, x.currency)}`),
    created: adminDate(entity.createdAt),
  }));
  return { rows, page, total: result.total };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return answerEntityIntent(admin, PAGE, null, await readFormData(request));
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

const columns: DataColumn<Row>[] = [
  {
    key: "name",
    header: c.table.columns.name,
    rowHeader: true,
    card: "primary",
    cell: (row) => (
      <Link to={`${PAGE}/${row.id}`} className="font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
        {row.name}
      </Link>
    ),
  },
  { key: "kind", header: c.table.columns.kind, width: "w-36", card: "badge", cell: (row) => row.kind },
  {
    key: "members",
    header: c.table.columns.members,
    cell: (row) => {
      const text = `${c.table.memberCount(row.memberCount)}: ${c.table.owners(row.owners)}`;
      return <OneLine title={text}>{text}</OneLine>;
    },
  },
  {
    key: "commitments",
    header: c.table.columns.commitments,
    cell: (row) =>
      row.commitments.length ? (
        row.commitments.map((text) => (
          <span key={text} className="block whitespace-nowrap tabular-nums">
            {text}
          </span>
        ))
      ) : (
        <span className="text-slate-500 dark:text-slate-400">{c.table.noCommitment}</span>
      ),
  },
  { key: "created", header: c.table.columns.created, width: "w-32", card: "meta", cell: (row) => row.created },
];

function CreateEntityForm() {
  const { fetcher, answer, errors, typed, busy } = useIntentForm<EntityFormAnswer>("create-entity");
  return (
    <section aria-labelledby="new-entity-title" className="mt-8 max-w-2xl rounded-xl border border-slate-200 p-5 dark:border-slate-800">
      <h2 id="new-entity-title" className="text-lg font-semibold">
        {c.create.title}
      </h2>
      <EnhancedForm fetcher={fetcher} action={PAGE} className="mt-3 grid gap-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value="create-entity" />
        <Field id="entity-name" name="name" label={c.create.name} hint={c.create.nameHint} errors={errors?.name} required maxLength={200} defaultValue={typed?.name ?? ""} className="sm:col-span-2" />
        <SelectField id="entity-kind" name="kind" label={c.create.kind} errors={errors?.kind} defaultValue={typed?.kind ?? "individual"}>
          {ENTITY_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {entityKindLabels[kind]}
            </option>
          ))}
        </SelectField>
        <Field
          id="entity-owner"
          name="ownerEmail"
          type="email"
          label={c.create.ownerEmail}
          hint={c.create.ownerEmailHint}
          errors={errors?.ownerEmail ?? errors?.members}
          required
          maxLength={254}
          defaultValue={typed?.ownerEmail ?? ""}
        />
        <ErrorList id="new-entity-error" errors={answer?.status === "error" && !errors?.name && !errors?.ownerEmail && !errors?.members && !errors?.kind ? errors?.form : undefined} className="sm:col-span-2" />
        <div className="sm:col-span-2">
          <StatusButton pending={busy} pendingLabel={c.create.pending}>
            {c.create.submit}
          </StatusButton>
        </div>
      </EnhancedForm>
    </section>
  );
}

export default function Entities({ loaderData }: Route.ComponentProps) {
  const { rows, page, total } = loaderData;
  return (
    <>
      <AdminPageHeader page="entities" intro={c.intro} />
      {total === 0 ? (
        <EmptyState>{c.empty.description}</EmptyState>
      ) : (
        <div id="entities" className="mt-6">
          <DataTable label={c.table.label} rows={rows} rowKey={(row) => row.id} rowTestId="entity-row" columns={columns} />
          <Pager label={c.table.label} page={page} total={total} shown={rows.length} hrefFor={(p) => pageHref({ pathname: PAGE, search: "", param: "page", page: p, anchor: "entities" })} />
        </div>
      )}
      <CreateEntityForm />
    </>
  );
}
