/**
 * The hosted create-bank-account page, an Eta template inside the shared layout (see
 * common/http/templates/hosted-layout.ts for why templates are strings). Every `<%= %>` escapes.
 *
 * Data: t (strings), banks ({code, lengths, label}[]).
 */
export const BANK_ACCOUNT_TEMPLATE = `<% layout('@layout') %>
    <h1><%= it.t.heading %></h1>
    <p class="lead"><%= it.t.lead %></p>
    <p id="message" class="error" role="alert" aria-live="assertive" hidden></p>
    <p id="status" class="done" role="status" aria-live="polite" hidden></p>
    <form id="bank-account-form" novalidate>
      <label for="bank"><%= it.t.bank %></label>
      <select id="bank" name="bank" required>
        <option value=""><%= it.t.chooseBank %></option>
<% it.banks.forEach(function (bank) { %>
        <option value="<%= bank.code %>" data-lengths="<%= bank.lengths %>"><%= bank.label %></option>
<% }) %>
      </select>
      <label for="account-number"><%= it.t.accountNumber %></label>
      <input id="account-number" name="account-number" inputmode="numeric" autocomplete="off" required aria-describedby="account-number-hint">
      <p class="hint" id="account-number-hint"><%= it.t.accountNumberHint %></p>
      <label for="account-holder-name"><%= it.t.holder %></label>
      <input id="account-holder-name" name="account-holder-name" autocomplete="name" maxlength="140" required>
      <button id="save" type="submit"><%= it.t.save %></button>
    </form>
`;
