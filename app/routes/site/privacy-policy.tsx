export default function PrivacyPolicy() {
  return <h1>privacy-policy</h1>;
}
