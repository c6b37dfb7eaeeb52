// The field layout of the Thresholds tab's cards (defaults, backups).

/** A titled group of fields on a Thresholds card. */
export function Group({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1.5 text-xs font-semibold tracking-wide text-gray-500 uppercase dark:text-gray-400">
        {title}
      </legend>
      <div className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-x-4 gap-y-1.5">
        {children}
      </div>
    </fieldset>
  )
}

/** One labelled field of a group. */
export function Field({
  label,
  htmlFor,
  children,
}: {
  label: string
  htmlFor?: string
  children: React.ReactNode
}) {
  return (
    <div className="flex items-center justify-between gap-2 text-sm">
      {htmlFor ? (
        <label htmlFor={htmlFor} className="text-gray-700 dark:text-gray-300">
          {label}
        </label>
      ) : (
        <span aria-hidden className="text-gray-700 dark:text-gray-300">
          {label}
        </span>
      )}
      {children}
    </div>
  )
}
