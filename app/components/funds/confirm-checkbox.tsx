import { CheckboxField } from "../kit/fields";

/** A required confirmation checkbox with its label beside it and its error (the kit's CheckboxField wires them). */
export function ConfirmCheckbox({
  formId,
  name,
  label,
  defaultChecked,
  errors,
}: {
  formId: string;
  name: string;
  label: string;
  defaultChecked: boolean;
  errors: string[] | undefined;
}) {
  return <CheckboxField id={`${formId}-${name}`} name={name} label={label} value="true" required defaultChecked={defaultChecked} errors={errors} />;
}
