import { companyInitials } from "~/content/portfolio";

const sizes = { md: "size-12 text-base", lg: "size-16 text-lg" } as const;

/** A round image, or two-letter initials when there is none (decorative: the name is always shown next to it). */
export function Avatar({ name, src, size = "md", contain = false }: { name: string; src?: string | undefined; size?: keyof typeof sizes; contain?: boolean }) {
  const px = size === "md" ? 48 : 64;
  if (src) {
    return (
      <img
        src={src}
        alt=""
        width={px}
        height={px}
        loading="lazy"
        className={`${sizes[size]} shrink-0 rounded-full ${contain ? "border border-slate-200 bg-white object-contain p-1 dark:border-slate-700" : "object-cover"}`}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={`flex ${sizes[size]} shrink-0 items-center justify-center rounded-full bg-brand-100 font-bold text-brand-800 dark:bg-brand-900 dark:text-brand-100`}
    >
      {companyInitials(name)}
    </span>
  );
}
