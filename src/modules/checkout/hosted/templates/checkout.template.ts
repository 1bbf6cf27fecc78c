/**
 * The hosted checkout page, an Eta template inside the shared layout (see
 * common/http/templates/hosted-layout.ts for why templates are strings). Every `<%= %>` escapes.
 *
 * Data: t (strings), merchant, amount (formatted), description, status, card, promptpay
 * (booleans: the methods offered), cardName (Omise.js: the cardholder's name), cardElement
 * (Stripe's Payment Element instead of the card fields), livemode, cancelUrl, savedCard (the
 * "Pay with Visa •••• 3155" label of the saved card an off-session payment needs authenticated, or null),
 * promotionCode (the promotion code field of a subscription checkout with allow_promotion_codes),
 * tabs (the payment method tabs: card, PromptPay, other), others (the registry's other types the
 * checkout allows, grouped: apps and wallets, mobile banking, card installments; each with the apps
 * or banks it supports and, for installments, its terms; FPX's banks as a required select, `banks`,
 * after a placeholder, with the inline message `bankMissing` its script shows when Pay is pressed
 * without a bank).
 */
export const CHECKOUT_TEMPLATE = `<% layout('@layout') %>
    <h1><%= it.t.heading %></h1>
<% if (it.amount) { %>
    <p class="amount" id="amount"><%= it.amount %></p>
<% } %>
<% if (it.description) { %>
    <p class="description"><%= it.description %></p>
<% } %>
<% if (it.status === 'complete') { %>
    <p class="done" role="status"><%= it.t.paid %></p>
<% } else if (it.status === 'expired') { %>
    <p class="error" role="alert"><%= it.t.expired %></p>
<% } else { %>
    <p id="message" class="error" role="alert" aria-live="assertive" hidden></p>
    <p id="status" class="done" role="status" aria-live="polite" hidden></p>
<% if (it.promotionCode) { %>
    <form id="promotion-form" novalidate>
      <label for="promotion-code"><%= it.t.promotionCode %></label>
      <div class="row">
        <div><input id="promotion-code" name="promotion-code" autocomplete="off" autocapitalize="characters" spellcheck="false"></div>
        <div class="apply"><button id="apply-promotion" type="submit"><%= it.t.applyCode %></button></div>
      </div>
    </form>
<% } %>
<% if (it.tabs.length > 1) { %>
    <div class="methods" role="tablist" aria-label="<%= it.t.method %>">
<% it.tabs.forEach((tab, i) => { %>
      <button type="button" role="tab" id="tab-<%= tab.id %>" aria-controls="panel-<%= tab.id %>" aria-selected="<%= i === 0 %>" tabindex="<%= i === 0 ? 0 : -1 %>"><%= tab.label %></button>
<% }) %>
    </div>
<% } %>
<% if (it.card) { %>
    <div id="panel-card"<% if (it.tabs.length > 1) { %> role="tabpanel" aria-labelledby="tab-card"<% } %>>
<% if (it.savedCard) { %>
    <button id="pay-saved-card" type="button"><%= it.savedCard %></button>
    <p class="hint" id="saved-card-hint"><%= it.t.orNewCard %></p>
<% } %>
    <form id="card-form" novalidate>
<% if (it.cardElement) { %>
      <div id="payment-element"></div>
<% } else { %>
<% if (it.cardName) { %>
      <label for="card-name"><%= it.t.cardName %></label>
      <input id="card-name" name="card-name" autocomplete="cc-name" required>
<% } %>
      <label for="card-number"><%= it.t.cardNumber %></label>
      <input id="card-number" name="card-number" inputmode="numeric" autocomplete="cc-number" placeholder="<%= it.livemode ? '1234 1234 1234 1234' : '4242 4242 4242 4242' %>" required>
      <div class="row">
        <div><label for="card-expiry"><%= it.t.expiry %></label>
        <input id="card-expiry" name="card-expiry" autocomplete="cc-exp" placeholder="<%= it.t.expiryPlaceholder %>" required></div>
        <div><label for="card-cvc"><%= it.t.cvc %></label>
        <input id="card-cvc" name="card-cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required></div>
      </div>
<% } %>
      <button id="pay-card" type="submit"><%= it.t.pay %></button>
    </form>
    </div>
<% } %>
<% if (it.promptpay) { %>
    <div id="panel-promptpay"<% if (it.tabs.length > 1) { %> role="tabpanel" aria-labelledby="tab-promptpay"<% if (it.tabs[0].id !== 'promptpay') { %> hidden<% } %><% } %>>
    <p class="hint" id="promptpay-hint"><%= it.t.promptpayHint %></p>
    <button id="pay-promptpay" type="button" aria-describedby="promptpay-hint"><%= it.t.payPromptpay %></button>
    <section id="promptpay-qr" hidden aria-label="<%= it.t.qrLabel %>">
      <div class="thaiqr">
        <div class="thaiqr-band">
          <svg class="thaiqr-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <rect x="1" y="1" width="22" height="22" rx="4" fill="#fff"/>
            <rect x="4" y="4" width="7" height="7" rx="1" fill="#0b3b63"/><rect x="6" y="6" width="3" height="3" fill="#fff"/>
            <rect x="13" y="4" width="7" height="7" rx="1" fill="#0b3b63"/><rect x="15" y="6" width="3" height="3" fill="#fff"/>
            <rect x="4" y="13" width="7" height="7" rx="1" fill="#0b3b63"/><rect x="6" y="15" width="3" height="3" fill="#fff"/>
            <rect x="13" y="13" width="3" height="3" fill="#0b3b63"/><rect x="17" y="17" width="3" height="3" fill="#0b3b63"/>
          </svg>
          <span class="thaiqr-title" lang="en">THAI QR PAYMENT</span>
        </div>
        <div class="thaiqr-body">
          <p class="promptpay-mark" lang="en"><span class="pp-prompt">Prompt</span><span class="pp-pay">Pay</span></p>
          <img id="promptpay-image" alt="<%= it.t.qrAlt %>" width="240" height="240">
          <p class="qr-merchant" id="qr-merchant"><%= it.merchant %></p>
          <p class="qr-amount" id="qr-amount"><%= it.amount %></p>
        </div>
      </div>
      <p class="hint"><%= it.t.scan %> <span id="promptpay-expiry"></span></p>
<% if (!it.livemode) { %>
      <button id="promptpay-simulate" type="button"><%= it.t.simulate %></button>
<% } %>
    </section>
    </div>
<% } %>
<% if (it.others.length) { %>
    <div id="panel-other"<% if (it.tabs.length > 1) { %> role="tabpanel" aria-labelledby="tab-other"<% if (it.tabs[0].id !== 'other') { %> hidden<% } %><% } %>>
<% for (const group of it.others) { %>
      <section class="method-group" aria-labelledby="group-<%= group.id %>">
        <h2 id="group-<%= group.id %>"><%= group.title %></h2>
        <p class="hint"><%= group.hint %></p>
<% for (const m of group.methods) { %>
        <div class="method-row">
<% if (m.terms) { %>
          <label for="term-<%= m.type %>"><%= m.termLabel %></label>
          <select id="term-<%= m.type %>">
<% for (const term of m.terms) { %>
            <option value="<%= term.months %>"><%= term.label %></option>
<% } %>
          </select>
<% } %>
<% if (m.banks) { %>
          <label for="bank-<%= m.type %>"><%= m.bankLabel %></label>
          <select id="bank-<%= m.type %>" required>
            <option value="" disabled selected><%= it.t.chooseBank %></option>
<% for (const bank of m.banks) { %>
            <option value="<%= bank.id %>"><%= bank.name %></option>
<% } %>
          </select>
          <p class="field-error" id="bank-<%= m.type %>-error" hidden><%= m.bankMissing %></p>
<% } %>
          <button type="button" class="pay-method" id="pay-<%= m.type %>" data-type="<%= m.type %>" data-flow="<%= m.flow %>"<% if (m.apps) { %> aria-describedby="apps-<%= m.type %>"<% } %>><%= m.label %></button>
<% if (m.apps) { %>
          <p class="apps" id="apps-<%= m.type %>"><%= m.apps %></p>
<% } %>
        </div>
<% } %>
      </section>
<% } %>
      <section id="other-qr" hidden aria-label="<%= it.t.qrLabelOther %>">
        <img id="other-qr-image" alt="<%= it.t.qrAltOther %>" width="240" height="240">
        <p class="qr-amount"><%= it.amount %></p>
<% if (!it.livemode) { %>
        <button id="other-simulate" type="button"><%= it.t.simulateOther %></button>
<% } %>
      </section>
    </div>
<% } %>
<% } %>
<% if (it.cancelUrl && it.status === 'open') { %>
    <a class="cancel" href="<%= it.cancelUrl %>"><%= it.t.cancel %></a>
<% } %>
`;
