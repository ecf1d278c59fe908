import type { Transporter } from "nodemailer";

export type SentMail = { from?: unknown; to?: unknown; subject?: unknown; text?: unknown };

/** A nodemailer-like transport whose SMTP server can be switched off and on. */
export function fakeTransport() {
  const sent: SentMail[] = [];
  const state = { down: false, calls: 0 };
  const transport = {
    async sendMail(mail: SentMail) {
      state.calls++;
      if (state.down) throw new Error("connect ECONNREFUSED 127.0.0.1:587");
      sent.push(mail);
      return { messageId: `<${sent.length}@test>` };
    },
  };
  return {
    transport: transport as unknown as Transporter,
    sent,
    get calls() {
      return state.calls;
    },
    goDown() {
      state.down = true;
    },
    comeBack() {
      state.down = false;
    },
  };
}
