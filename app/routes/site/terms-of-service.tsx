export default function TermsOfService() {
  return <h1>terms-of-service</h1>;
}
