/**
 * The sign-in page of the authorization endpoint, an Eta template inside the hosted pages' shared
 * layout (see common/http/templates/hosted-layout.ts). Every `<%= %>` escapes.
 *
 * Data: action, clientName, hidden ({name, value}[]), email, error.
 */
export const LOGIN_TEMPLATE = `<% layout('@layout') %>
    <h1>Sign in</h1>
    <p class="client">to continue to <%= it.clientName %></p>
<% if (it.error) { %>
    <p class="error" role="alert"><%= it.error %></p>
<% } %>
    <form method="post" action="<%= it.action %>">
<% it.hidden.forEach(function (field) { %>
      <input type="hidden" name="<%= field.name %>" value="<%= field.value %>">
<% }) %>
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="username" required value="<%= it.email %>">
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required>
      <button type="submit">Sign in</button>
    </form>
`;
