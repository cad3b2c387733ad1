import { describe, expect, it } from 'vitest';
import { type ClassifyInput, classifyInboundMessage, classifyParsedMessage } from './classify';
import { parseInboundMessage } from './inbound-message';

const mail = (input: Partial<ClassifyInput>): ClassifyInput => ({
  subject: '',
  text: '',
  html: null,
  fromAddress: 'news@letters.example',
  replyTo: null,
  ...input,
});

const LIST_HEADERS = {
  'list-unsubscribe': '<https://letters.example/u/1>',
  'list-unsubscribe-post': 'List-Unsubscribe=One-Click',
};

describe('confirmation mails are found in the common languages, with the link that confirms', () => {
  it('en, HTML (Mailchimp): the "Yes, subscribe me" button, not the logo or the unsubscribe link', () => {
    const result = classifyInboundMessage(
      mail({
        subject: 'Tech Weekly: Please Confirm Subscription',
        fromAddress: 'us1-abc@mail.mailchimp.example',
        text: 'Please confirm your subscription to the Tech Weekly list.',
        html: `<table><tr><td><a href="https://mailchimp.com/?utm_source=confirm"><img alt="Mailchimp"></a></td></tr>
          <tr><td><h1>Please Confirm Subscription</h1>
          <a href="https://techweekly.us1.list-manage.com/unsubscribe?u=9f&amp;id=3c">Unsubscribe</a>
          <a class="button" href="https://techweekly.us1.list-manage.com/subscribe/confirm?u=9f&amp;id=3c&amp;e=1a">Yes, subscribe me to this list.</a>
          <p>If you received this email by mistake, simply delete it.</p></td></tr></table>`,
      }),
    );
    expect(result).toEqual({
      kind: 'confirmation',
      confirmUrl: 'https://techweekly.us1.list-manage.com/subscribe/confirm?u=9f&id=3c&e=1a',
      forwardingCode: null,
    });
  });

  it('en, plain text (Substack): the link on the "Confirm" line, not the unsubscribe one', () => {
    const result = classifyInboundMessage(
      mail({
        subject: 'Confirm your subscription to The Weekly',
        text: [
          'Hi there,',
          '',
          'Please confirm your email address to start receiving The Weekly.',
          '',
          'Unsubscribe: https://weekly.substack.example/action/disable_email?token=u1',
          'Confirm subscription:',
          'https://weekly.substack.example/api/v1/free?token=c2&nojs=true',
          '',
          "If you didn't sign up, you can ignore this email.",
        ].join('\n'),
      }),
    );
    expect(result.kind).toBe('confirmation');
    expect(result.confirmUrl).toBe('https://weekly.substack.example/api/v1/free?token=c2&nojs=true');
  });

  it('de, HTML: "Anmeldung bestätigen" (double opt-in), never the "Abmelden" link before it', () => {
    const result = classifyInboundMessage(
      mail({
        subject: 'Bitte bestätigen Sie Ihre Anmeldung zum Newsletter',
        html: `<p>Vielen Dank für Ihr Interesse an unserem Newsletter!</p>
          <p><a href="https://news.example.de/abmelden?c=77">Abmelden</a></p>
          <p><a href="https://news.example.de/optin?c=77&amp;h=ab12">Anmeldung jetzt bestätigen</a></p>
          <p>Falls Sie sich nicht angemeldet haben, ignorieren Sie diese E-Mail.</p>`,
        text: 'Vielen Dank für Ihr Interesse an unserem Newsletter!',
      }),
    );
    expect(result).toMatchObject({
      kind: 'confirmation',
      confirmUrl: 'https://news.example.de/optin?c=77&h=ab12',
    });
  });

  it('fr, plain text: the link under "Merci de confirmer votre inscription"', () => {
    const result = classifyInboundMessage(
      mail({
        subject: 'Confirmez votre inscription',
        text: [
          'Bonjour,',
          "Merci de confirmer votre inscription à notre lettre d'information en cliquant sur le lien ci-dessous :",
          'https://lettre.example.fr/l/9a8b7c',
          "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message.",
        ].join('\n'),
      }),
    );
    expect(result).toMatchObject({ kind: 'confirmation', confirmUrl: 'https://lettre.example.fr/l/9a8b7c' });
  });

  it('es, HTML: "Confirmar suscripción", not "Darse de baja"', () => {
    const result = classifyInboundMessage(
      mail({
        subject: 'Confirma tu suscripción al boletín',
        html: `<p>¡Hola! Solo falta un paso.</p>
          <a href="https://boletin.example.es/baja?t=zz">Darse de baja</a>
          <a href="https://boletin.example.es/s/c?t=zz">Confirmar suscripción</a>`,
        text: '¡Hola! Solo falta un paso.',
      }),
    );
    expect(result).toMatchObject({ kind: 'confirmation', confirmUrl: 'https://boletin.example.es/s/c?t=zz' });
  });

  it('it, pt, nl and pl', () => {
    const cases: [Partial<ClassifyInput>, string][] = [
      [
        {
          subject: 'Conferma la tua iscrizione alla newsletter',
          text: 'Ciao!\nClicca qui per confermare:\nhttps://news.example.it/conferma?k=1\nA presto.',
        },
        'https://news.example.it/conferma?k=1',
      ],
      [
        {
          subject: 'Confirme sua inscrição',
          html: '<p>Olá!</p><a href="https://news.example.com.br/c/abc">Sim, quero confirmar minha inscrição</a><a href="https://news.example.com.br/descadastrar">Descadastrar</a>',
          text: 'Olá!',
        },
        'https://news.example.com.br/c/abc',
      ],
      [
        {
          subject: 'Bevestig je inschrijving',
          html: '<p>Bedankt!</p><a href="https://nieuwsbrief.example.nl/afmelden">Afmelden</a> <a href="https://nieuwsbrief.example.nl/b?id=9">Ja, bevestig mijn inschrijving</a>',
          text: 'Bedankt!',
        },
        'https://nieuwsbrief.example.nl/b?id=9',
      ],
      [
        {
          subject: 'Potwierdź subskrypcję newslettera',
          text: 'Dzień dobry,\nkliknij, aby potwierdzić swój adres e-mail:\nhttps://newsletter.example.pl/p/77\nJeśli to nie Ty, zignoruj tę wiadomość.',
        },
        'https://newsletter.example.pl/p/77',
      ],
    ];
    for (const [input, confirmUrl] of cases) {
      expect(classifyInboundMessage(mail(input)), input.subject).toMatchObject({
        kind: 'confirmation',
        confirmUrl,
      });
    }
  });

  it('a "double opt-in" welcome, and a "Click here" whose URL says verify', () => {
    const welcome = classifyInboundMessage(
      mail({
        subject: 'Welcome!',
        html: '<p>Thanks for signing up. We use double opt-in, so one more click:</p><a href="https://x.example/d/1">Confirm</a>',
        text: 'Thanks for signing up. We use double opt-in, so one more click: Confirm',
      }),
    );
    expect(welcome).toMatchObject({ kind: 'confirmation', confirmUrl: 'https://x.example/d/1' });
    const byUrl = classifyInboundMessage(
      mail({
        subject: 'Verify your email address',
        html: '<a href="https://x.example/blog">Our blog</a><p><a href="https://x.example/subscription/verify?token=abc">Click here</a></p>',
        text: 'Click here',
      }),
    );
    expect(byUrl).toMatchObject({
      kind: 'confirmation',
      confirmUrl: 'https://x.example/subscription/verify?token=abc',
    });
  });

  it('never chooses a javascript:, mailto: or relative link, nor one that confirms unsubscribing', () => {
    const result = classifyInboundMessage(
      mail({
        subject: 'Please confirm your subscription',
        html: `<a href="javascript:alert(1)">Confirm subscription</a>
          <a href="mailto:confirm@x.example">Confirm by e-mail</a>
          <a href="/confirm/relative">Confirm here</a>
          <a href="https://x.example/unsubscribe?confirm=1">Confirm unsubscribe</a>
          <a href="https://x.example/confirm/ok">Confirm my subscription</a>`,
        text: '',
      }),
    );
    expect(result).toMatchObject({ kind: 'confirmation', confirmUrl: 'https://x.example/confirm/ok' });
  });

  it('a mailing list offering both a web page and a reply is a confirmation with the page (Mailman)', () => {
    const result = classifyInboundMessage(
      mail({
        subject: 'Your confirmation is required to join the Tech-news mailing list',
        fromAddress: 'tech-news-request@lists.example.org',
        replyTo: 'tech-news-request@lists.example.org',
        text: [
          'Mailing list subscription confirmation notice for mailing list Tech-news',
          '',
          'We have received a request from 203.0.113.9 for subscription of your',
          'email address, "adareads@digest.test", to the tech-news@lists.example.org',
          'mailing list.  To confirm that you want to be added to this mailing',
          'list, simply reply to this message, keeping the Subject: header intact.',
          'Or visit this web page:',
          '',
          '    https://lists.example.org/mailman/confirm/tech-news/4c1a2b3d',
        ].join('\n'),
      }),
    );
    expect(result).toMatchObject({
      kind: 'confirmation',
      confirmUrl: 'https://lists.example.org/mailman/confirm/tech-news/4c1a2b3d',
    });
  });
});

describe('forwarding verifications show their code', () => {
  const gmailText = [
    'ada@gmail.com has requested to automatically forward mail to your email',
    'address adareads@digest.test.',
    '',
    'Confirmation code: 618309214',
    '',
    'To allow ada@gmail.com to automatically forward mail to your address,',
    'please click the link below to confirm the request:',
    '',
    'https://mail-settings.google.com/mail/vf-%5BANGjdJ8x2%5D-Qm9vYmFy',
    '',
    'If you click the link and it appears to be broken, please copy and paste it',
    "into a new browser window. If you aren't able to access the link, you can",
    'send the confirmation code 618309214 to ada@gmail.com.',
  ].join('\n');

  it('Gmail: the code of the subject and the confirm link', () => {
    const result = classifyInboundMessage(
      mail({
        subject: '(#618309214) Gmail Forwarding Confirmation - Receive Mail from ada@gmail.com',
        fromAddress: 'forwarding-noreply@google.com',
        text: gmailText,
      }),
    );
    expect(result).toEqual({
      kind: 'forwarding_code',
      confirmUrl: 'https://mail-settings.google.com/mail/vf-%5BANGjdJ8x2%5D-Qm9vYmFy',
      forwardingCode: '618309214',
    });
  });

  it('Gmail in another language (the subject is translated, the code stays)', () => {
    const result = classifyInboundMessage(
      mail({
        subject: '(#618309214) Gmail-Weiterleitungsbestätigung – E-Mails von ada@gmail.com empfangen',
        fromAddress: 'forwarding-noreply@google.com',
        text: 'ada@gmail.com möchte E-Mails automatisch an Ihre Adresse weiterleiten.\nBestätigungscode: 618309214',
      }),
    );
    expect(result).toMatchObject({ kind: 'forwarding_code', forwardingCode: '618309214' });
  });

  it('Outlook / Microsoft: the security code', () => {
    const result = classifyInboundMessage(
      mail({
        subject: 'Verify your email address',
        fromAddress: 'account-security-noreply@accountprotection.microsoft.com',
        html: "<p>To finish adding <b>ad***@digest.test</b> to your Microsoft account, we just need to make sure this email address is yours.</p><p>Security code: <b>7293561</b></p><p>If you didn't request this code, you can safely ignore this email.</p>",
        text: 'To finish adding ad***@digest.test to your Microsoft account, we just need to make sure this email address is yours.\nSecurity code: 7293561',
      }),
    );
    expect(result).toEqual({ kind: 'forwarding_code', confirmUrl: null, forwardingCode: '7293561' });
  });

  it("Google's and Microsoft's newsletters are newsletters", () => {
    expect(
      classifyInboundMessage(
        mail({
          subject: 'Whats new in Google Workspace, issue 12',
          fromAddress: 'workspace-noreply@google.com',
          text: 'Gmail now lets you schedule sends. Code samples: 2024 edition.',
        }),
      ).kind,
    ).toBe('newsletter');
    expect(
      classifyInboundMessage(
        mail({
          subject: 'Microsoft 365 tips for November',
          fromAddress: 'microsoft365@email.microsoft.com',
          text: 'Use code 2025 to get started with Copilot.',
        }),
      ).kind,
    ).toBe('newsletter');
  });
});

describe('reply-to-confirm lists are found in several languages', () => {
  it.each([
    [
      'en',
      'Confirm your subscription to Sam’s Letters',
      'Thanks for signing up! To confirm your subscription, simply reply to this email. Any reply will do.',
    ],
    ['en', 'One more step', 'Please reply to this email with "yes" to confirm you want my letters.'],
    ['de', 'Ihre Anmeldung', 'Um Ihre Anmeldung zu bestätigen, antworten Sie einfach auf diese E-Mail.'],
    ['fr', 'Votre abonnement', 'Pour confirmer votre abonnement, répondez simplement à cet e-mail.'],
    ['es', 'Tu suscripción', 'Para confirmar tu suscripción, responde a este correo.'],
    ['it', 'La tua iscrizione', 'Per confermare la tua iscrizione, rispondi a questa email.'],
    ['pt', 'Sua inscrição', 'Para confirmar sua inscrição, responda esta mensagem.'],
    ['nl', 'Je inschrijving', 'Beantwoord deze e-mail om je inschrijving te bevestigen.'],
    ['pl', 'Twoja subskrypcja', 'Aby potwierdzić subskrypcję, odpowiedz na tę wiadomość.'],
  ])('%s: %s', (_language, subject, text) => {
    expect(classifyInboundMessage(mail({ subject, text, html: `<p>${text}</p>` }))).toEqual({
      kind: 'reply_to_confirm',
      confirmUrl: null,
      forwardingCode: null,
    });
  });
});

describe('reply-to-confirm in wrapped plain text, and hostile sizes', () => {
  it('finds the reply phrase across the line breaks of wrapped text (Mailman without a web page)', () => {
    const text = [
      'We have received a request for subscription of your email address to the',
      'tech-news mailing list.  To confirm that you want to be added to this mailing',
      'list, simply reply to this message, keeping the Subject: header intact.',
    ].join('\n');
    expect(classifyInboundMessage(mail({ subject: 'confirm 4c1a2b3d', text })).kind).toBe('reply_to_confirm');
  });

  it('classifies a megabyte without punctuation and a thousand links in linear time (seconds, not hours)', () => {
    const started = performance.now();
    const words = 'reply to this email simply reply confirm your '.repeat(25_000);
    const links = '<a href="https://x.example/confirm">Confirm</a>'.repeat(1_000);
    classifyInboundMessage(
      mail({ subject: 'Confirm your subscription', text: words, html: `<p>${words}</p>${links}` }),
    );
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe('ordinary newsletters stay newsletters', () => {
  it('"verify your facts", a link to an article about verifying, and "reply to this email" for feedback', () => {
    const html = `<h1>The Weekly Skeptic #42</h1>
      <p>Before you share a story, verify your facts. Here is how to check a claim in five minutes.</p>
      <p><a href="https://skeptic.example/how-to-verify-a-claim">Read: how to verify a claim</a></p>
      <p>Got a tip? Just reply to this email — I read every one.</p>
      <p><a href="https://skeptic.example/unsubscribe?u=1">Unsubscribe</a></p>`;
    const text =
      'Before you share a story, verify your facts. Got a tip? Just reply to this email — I read every one.';
    for (const headers of [LIST_HEADERS, undefined]) {
      expect(
        classifyInboundMessage(
          mail({ subject: 'The Weekly Skeptic #42', html, text, ...(headers ? { headers } : {}) }),
        ),
      ).toEqual({ kind: 'newsletter', confirmUrl: null, forwardingCode: null });
    }
  });

  it('list mail whose footer says "you confirmed your subscription" or "not subscribed yet? confirm your email"', () => {
    const result = classifyInboundMessage(
      mail({
        subject: 'Letters Weekly #12: the creative issue',
        headers: LIST_HEADERS,
        html: `<p>Our creative narrative this week.</p>
          <p>Forwarded this? Not subscribed yet? <a href="https://letters.example/subscribe/confirm">Confirm your email</a>.</p>
          <p>You receive this because you confirmed your subscription. <a href="https://letters.example/u/1">Unsubscribe</a></p>`,
        text: 'Our creative narrative this week. You receive this because you confirmed your subscription.',
      }),
    );
    expect(result.kind).toBe('newsletter');
  });

  it('a message that asks to confirm but has no link that confirms is not pinned as a confirmation', () => {
    const result = classifyInboundMessage(
      mail({
        subject: 'Confirm your subscription',
        html: '<a href="https://x.example/about">About us</a><a href="https://x.example/unsubscribe">Unsubscribe</a>',
        text: 'About us',
      }),
    );
    expect(result.kind).toBe('newsletter');
  });
});

describe('the inbound server classifies what it parsed (the SMTP server is given classifyParsedMessage)', () => {
  const envelope = { envelopeFrom: 'bounce@esp.example', receivedAt: new Date('2026-11-25T10:00:00Z') };
  const parse = (lines: string[]) => parseInboundMessage(Buffer.from(lines.join('\r\n')), envelope);

  it('pins a confirmation mail with its link, from the raw message', async () => {
    const parsed = await parse([
      'From: Tech Weekly <confirm@techweekly.example>',
      'To: ada@digest.test',
      'Subject: Tech Weekly: Please Confirm Subscription',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<p>Please confirm your subscription.</p>',
      '<a href="https://techweekly.example/subscribe/confirm?id=3c">Yes, subscribe me to this list.</a>',
    ]);
    expect(classifyParsedMessage(parsed)).toEqual({
      kind: 'confirmation',
      confirmUrl: 'https://techweekly.example/subscribe/confirm?id=3c',
      forwardingCode: null,
    });
  });

  it('reads List-Unsubscribe from the parsed sender: list mail that only mentions confirming is an issue', async () => {
    const parsed = await parse([
      'From: Letters <news@letters.example>',
      'To: ada@digest.test',
      'Subject: Letters Weekly #12',
      'List-Unsubscribe: <https://letters.example/u/1>',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<p>Not subscribed yet? Confirm your subscription here:</p>',
      '<a href="https://letters.example/confirm?t=1">Confirm</a>',
    ]);
    expect(classifyParsedMessage(parsed).kind).toBe('newsletter');
  });
});
