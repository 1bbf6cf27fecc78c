/**
 * The shared shell of every hosted page, an Eta template (`<%= %>` escapes; `<%~ %>` is raw and
 * only ever given server-made CSS and script). Kept as a string compiled at load rather than a
 * `.eta` file: the build is plain `tsc`, the tests run the TypeScript sources and the image
 * copies only `dist`, so a string reaches all three without an asset-copy step, and a broken
 * template fails at startup instead of on the first buyer.
 *
 * Data: lang, title, nonce (empty: a page whose CSP admits its inline style without one), style, brand (the text of the top bar, optional), livemode,
 * t (the shared strings of the locale), languages ({code, label, href, current}[]), body (HTML
 * from a page template), script (optional).
 */
export const HOSTED_LAYOUT = `<!doctype html>
<html lang="<%= it.lang %>">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title><%= it.title %></title>
  <style<% if (it.nonce) { %> nonce="<%= it.nonce %>"<% } %>><%~ it.style %></style>
</head>
<body>
  <main>
    <div class="top">
      <span class="brand"><%= it.brand || "" %></span>
<% if (it.languages && it.languages.length) { %>
      <nav class="lang" aria-label="<%= it.t.language %>">
<% it.languages.forEach(function (l) { %>
        <a href="<%= l.href %>" lang="<%= l.code %>" hreflang="<%= l.code %>"<% if (l.current) { %> aria-current="true"<% } %>><%= l.label %></a>
<% }) %>
      </nav>
<% } %>
    </div>
<% if (it.livemode === false) { %>
    <p class="test"><%= it.t.testMode %></p>
<% } %>
<%~ it.body %>
  </main>
<% if (it.script) { %>
  <script nonce="<%= it.nonce %>"><%~ it.script %></script>
<% } %>
</body>
</html>
`;

/** A page that only says why there is nothing to show. Data: heading, message. */
export const HOSTED_ERROR = `<% layout('@layout') %>
    <h1><%= it.heading %></h1>
    <p class="error" role="alert"><%= it.message %></p>
`;

/** A page that sends the browser on by script. Data: heading, message, href (a visible fallback link), linkText. */
export const HOSTED_REDIRECT = `<% layout('@layout') %>
    <h1><%= it.heading %></h1>
    <p role="status"><%= it.message %><% if (it.href) { %> <a id="refresh" href="<%= it.href %>"><%= it.linkText %></a><% } %></p>
`;
