/**
 * The console's only assets, served by the app itself (no CDN: studios run it in closed
 * networks): one stylesheet and one small script (copy buttons, the live word-test box,
 * confirmations, local and relative times, the endpoint form's transport fields). Every page works
 * without the script.
 */

/** The stylesheet. */
export const CONSOLE_CSS = `
:root{--bg:#f6f7f9;--panel:#fff;--ink:#1d232b;--muted:#5b6675;--line:#dde2e8;--accent:#f38020;
--accent-ink:#b45309;--blue:#1f6feb;--ok:#1a7f37;--ok-bg:#e6f4ea;--bad:#c62828;--bad-bg:#fdecea;
--warn:#8a6100;--warn-bg:#fff4ce;--nav:#1d232b;--radius:8px}
*{box-sizing:border-box}
html{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--ink);background:var(--bg)}
body{margin:0;min-height:100vh}
a{color:var(--blue)}
:focus-visible{outline:3px solid var(--blue);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5em 1em;z-index:10}
.skip:focus{left:1em}
.top{display:flex;align-items:center;gap:1em;padding:.6em 1.2em;background:var(--nav);color:#fff;flex-wrap:wrap}
.top a{color:#fff;text-decoration:none}
.brand{font-weight:700;letter-spacing:.2px}
.brand span{color:var(--accent)}
.top form{margin:0;display:flex;gap:.4em;align-items:center}
.top label{font-size:.85em;color:#c9d1d9}
.top select,.top button,.top input{font:inherit;font-size:.9em;padding:.25em .5em;border-radius:6px;border:1px solid #444c56;background:#2d333b;color:#fff}
.top input::placeholder{color:#9aa4b2}
.top form.switch{flex:0 1 360px;min-width:0}
.top form.switch input{flex:1 1 auto;min-width:0;width:100%}
.top .spacer{flex:1}
.frame{display:grid;grid-template-columns:210px 1fr;min-height:calc(100vh - 52px)}
.side{background:var(--panel);border-right:1px solid var(--line);padding:1em .6em}
.side h2{font-size:.75em;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:.4em .6em}
.side a{display:block;padding:.4em .7em;border-radius:6px;color:var(--ink);text-decoration:none}
.side a:hover{background:var(--bg)}
.side a[aria-current=page]{background:#fdf0e6;color:var(--accent-ink);font-weight:600}
.side h2.game-name{text-transform:none;letter-spacing:0;font-size:.95em;color:var(--ink);overflow-wrap:anywhere}
.side h2.game-name span{color:var(--muted);font-weight:400}
main{padding:1.4em 2em;max-width:1200px;min-width:0}
h1{font-size:1.45em;margin:0 0 .2em}
h2{font-size:1.1em;margin:1.6em 0 .5em}
.sub{color:var(--muted);margin:0 0 1.2em}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:var(--radius);padding:1em 1.2em;margin:0 0 1em}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(190px,1fr));gap:.8em;margin-bottom:1em}
.card{display:block;background:var(--panel);border:1px solid var(--line);border-radius:var(--radius);padding:.8em 1em;color:var(--ink);text-decoration:none}
a.card:hover{border-color:#aab4c0}
.card .n{font-size:1.6em;font-weight:700;line-height:1.3}
.card .n .badge{font-size:.6em;vertical-align:middle}
.card .l{color:var(--muted);font-size:.85em}
.tablewrap{overflow-x:auto;background:var(--panel);border:1px solid var(--line);border-radius:var(--radius);margin-bottom:1em}
table{border-collapse:collapse;width:100%;font-size:.92em}
th,td{text-align:left;padding:.55em .8em;border-bottom:1px solid var(--line);vertical-align:top}
th{background:#fafbfc;font-weight:600;color:var(--muted);font-size:.85em;white-space:nowrap}
tr:last-child td{border-bottom:0}
td form{display:inline;margin:0}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;word-break:break-all}
.badge{display:inline-block;padding:.05em .55em;border-radius:99px;font-size:.8em;font-weight:600;background:#eef1f4;color:var(--muted);white-space:nowrap}
.badge.ok{background:var(--ok-bg);color:var(--ok)}
.badge.bad{background:var(--bad-bg);color:var(--bad)}
.badge.warn{background:var(--warn-bg);color:var(--warn)}
.empty{border:1px dashed var(--line);border-radius:var(--radius);padding:1.2em;text-align:center;color:var(--muted);background:var(--panel);margin-bottom:1em}
.empty strong{display:block;color:var(--ink);margin-bottom:.3em}
.pager{display:flex;gap:.6em;align-items:center;margin:-.4em 0 1.2em}
code.longid{word-break:normal;overflow-wrap:break-word}
.addresses{display:grid;grid-template-columns:auto 1fr;gap:.15em .5em;align-items:baseline}
.addrlist code{display:block;margin-bottom:.15em}
.panel>p:first-child{margin-top:0}
.net{font-size:.72em;font-weight:600;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
.netstate{display:grid;gap:.2em;justify-items:start}
.small{font-size:.85em}
time .when-utc{color:var(--muted);font-size:.88em}
time .when-rel{color:var(--muted);font-size:.88em}
pre{overflow-x:auto;max-width:100%}
form[data-transport-form]:has(#ep-transport option[value=tcp]:checked) [data-transport=http],
form[data-transport-form]:has(#ep-transport option[value=http]:checked) [data-transport=tcp]{display:none}
form.stack{display:grid;gap:.8em;max-width:560px}
form.row{display:flex;flex-wrap:wrap;gap:.6em;align-items:end}
.field{display:grid;gap:.25em}
.field label,.field legend{font-weight:600;font-size:.9em}
.field .hint{color:var(--muted);font-size:.82em}
fieldset{border:1px solid var(--line);border-radius:6px;padding:.6em .8em}
fieldset label{font-weight:400;margin-right:1em}
input,select,textarea{font:inherit;padding:.45em .6em;border:1px solid #c5ccd6;border-radius:6px;background:#fff;color:var(--ink);min-width:0}
textarea{min-height:8em;width:100%;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
button,.button{font:inherit;font-weight:600;padding:.45em .95em;border-radius:6px;border:1px solid transparent;background:var(--blue);color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary,.button.secondary{background:#fff;color:var(--ink);border-color:#c5ccd6}
button.danger{background:#fff;color:var(--bad);border-color:#e6b4b4}
button.small{padding:.2em .6em;font-size:.85em}
.flash{padding:.7em 1em;border-radius:var(--radius);margin-bottom:1em;border:1px solid}
.flash.ok{background:var(--ok-bg);border-color:#b7dfc3;color:#0f5323}
.flash.error{background:var(--bad-bg);border-color:#f0b7b3;color:#8a1c1c}
.secret{background:#fff8e6;border:1px solid #f2d48a;border-radius:var(--radius);padding:1em;margin-bottom:1em}
.secret .value{display:flex;gap:.5em;align-items:center;flex-wrap:wrap;margin:.3em 0}
.secret code{background:#fff;border:1px solid #eadcb5;padding:.3em .5em;border-radius:4px;font-size:.95em}
.masked{font-family:ui-monospace,Menlo,Consolas,monospace;background:#f4f5f7;padding:.5em .7em;border-radius:6px;white-space:pre-wrap}
mark{background:#ffd8a8;color:#7a2e00;border-radius:3px;padding:0 .1em}
.timeline{background:var(--panel);border:1px solid var(--line);border-radius:var(--radius);padding:.8em 1em;margin-bottom:1em;overflow-x:auto}
.tl-row{display:grid;grid-template-columns:minmax(140px,240px) 1fr;gap:.8em;align-items:center;padding:.35em 0;border-bottom:1px solid var(--line)}
.tl-row:last-child{border-bottom:0}
.tl-label{font-size:.85em}
.tl-label small{display:block;color:var(--muted)}
.tl-track{display:block;width:100%;height:26px;min-width:320px;background:#f7f8fa;border-radius:4px}
.tl-line{stroke:#d5dae1;stroke-width:1}
.tl-mark{fill:var(--accent)}
.tl-mark.sent{fill:var(--ok)}
.tl-mark.cancelled{fill:#9aa4b2}
.tl-mark.leased{fill:var(--blue)}
.tl-axis{display:flex;justify-content:space-between;color:var(--muted);font-size:.78em;padding-top:.3em}
figure{margin:0 0 1em}
.muted{color:var(--muted)}
.mt{margin-top:1em}
.mb{margin-bottom:.8em}
.grid2{display:grid;grid-template-columns:1fr 1fr;gap:1em}
.signin{max-width:420px;margin:10vh auto;padding:0 1em}
.signin .panel{padding:1.6em}
.actions{display:flex;gap:.5em;flex-wrap:wrap;align-items:flex-start}
form.stack>button{justify-self:start}
@media (max-width:760px){
  .top{gap:.5em .8em;padding:.5em .8em}
  .top form.switch{flex:1 1 100%;order:3}
  .top form.switch label{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
  .top .spacer{display:none}
  .frame{grid-template-columns:1fr;grid-template-rows:auto 1fr}
  .side{border-right:0;border-bottom:1px solid var(--line);padding:.4em;display:flex;flex-wrap:wrap;gap:.2em;align-self:start}
  .side h2{display:none}
  .side h2.game-name{display:block;flex-basis:100%;margin:.2em .5em .3em}
  .side a{white-space:nowrap;padding:.3em .6em}
  main{padding:1em}
  .grid2{grid-template-columns:1fr}
  .cards{grid-template-columns:1fr 1fr}
  .tl-row{grid-template-columns:1fr}
  .tl-axis{margin-left:0}
  th,td{padding:.45em .5em}
  /* Phone width: each row is a card of "column: value" lines, so nothing scrolls sideways. */
  .tablewrap{overflow-x:visible;background:transparent;border:0}
  .tablewrap table,.tablewrap tbody,.tablewrap tr,.tablewrap td{display:block;width:100%}
  .tablewrap thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
  .tablewrap tr{background:var(--panel);border:1px solid var(--line);border-radius:var(--radius);margin-bottom:.6em;padding:.35em 0}
  /* A value's long words (time zone names, ids) break rather than run out of the card. */
  .tablewrap td{display:grid;grid-template-columns:7.5em minmax(0,1fr);gap:.6em;justify-items:start;border:0;padding:.2em .8em;overflow-wrap:anywhere}
  .tablewrap td::before{content:attr(data-label);color:var(--muted);font-size:.82em;font-weight:600}
  .tablewrap td[data-label=""]{display:block}
  .tablewrap td[data-label=""]::before{content:none}
  .tablewrap td:empty{display:none}
  .addresses{grid-template-columns:auto minmax(0,1fr)}
}
`;

/** The script: copy buttons, confirmations, and the live word-test box. */
export const CONSOLE_JS = `
document.addEventListener("click", function (e) {
  var b = e.target.closest("[data-copy]");
  if (!b) return;
  var el = document.getElementById(b.getAttribute("data-copy"));
  if (!el) return;
  navigator.clipboard.writeText(el.textContent.trim()).then(function () {
    b.textContent = "Copied";
    setTimeout(function () { b.textContent = "Copy"; }, 1500);
  });
});
document.addEventListener("submit", function (e) {
  var msg = e.target.getAttribute("data-confirm");
  if (msg && !window.confirm(msg)) e.preventDefault();
});
(function () {
  var box = document.querySelector("[data-live-test]");
  if (!box) return;
  var form = box.closest("form");
  var out = document.getElementById(box.getAttribute("data-live-test"));
  var timer;
  var latest = 0;
  function run() {
    if (!box.value.trim()) return;
    // Answers can arrive out of order: only the newest request's answer is shown.
    var mine = ++latest;
    var body = new URLSearchParams(new FormData(form));
    fetch(form.action + "?fragment=1", { method: "POST", body: body, credentials: "same-origin",
      headers: { "X-CSRF-Token": form.querySelector("[name=_csrf]").value } })
      .then(function (r) { return r.text(); })
      .then(function (html) { if (mine === latest) out.innerHTML = html; });
  }
  box.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 250); });
})();
(function () {
  // Times come in UTC; the viewer's own time goes beside them, and how long ago for recent ones.
  var times = document.querySelectorAll("time[data-when]");
  if (!times.length || !window.Intl) return;
  var local = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short",
    day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
  var rtf = Intl.RelativeTimeFormat ? new Intl.RelativeTimeFormat(undefined, { numeric: "auto" })
    : null;
  var units = [["second", 60], ["minute", 3600], ["hour", 86400], ["day", 7 * 86400]];
  function relative(ms) {
    if (!rtf) return "";
    var s = (ms - Date.now()) / 1000;
    var a = Math.abs(s);
    if (a >= 7 * 86400) return "";
    var size = 1;
    for (var i = 0; i < units.length; i++) {
      if (a < units[i][1]) return rtf.format(Math.round(s / size), units[i][0]);
      size = units[i][1];
    }
    return "";
  }
  function span(cls, text) {
    var e = document.createElement("span");
    e.className = cls;
    e.textContent = text;
    return e;
  }
  function render(t) {
    var d = new Date(t.getAttribute("datetime"));
    if (isNaN(d.getTime())) return;
    var utc = t.getAttribute("data-utc") || t.textContent;
    t.setAttribute("data-utc", utc);
    var parts = [];
    if (d.getTimezoneOffset() !== 0) parts.push(span("when-local", local.format(d)));
    parts.push(span("when-utc", utc));
    var rel = relative(d.getTime());
    if (rel) parts.push(span("when-rel", rel));
    t.textContent = "";
    parts.forEach(function (p, i) {
      if (i) t.appendChild(document.createTextNode(" · "));
      t.appendChild(p);
    });
  }
  function all() { times.forEach(render); }
  all();
  setInterval(all, 30000);
})();
document.querySelectorAll("[data-transport-form]").forEach(function (form) {
  // Only the chosen transport's fields show and are sent (the stylesheet hides them too).
  var select = form.querySelector("[name=transport]");
  function show() {
    form.querySelectorAll("[data-transport]").forEach(function (part) {
      var off = part.getAttribute("data-transport") !== select.value;
      part.hidden = off;
      part.querySelectorAll("input").forEach(function (i) { i.disabled = off; });
    });
  }
  select.addEventListener("change", show);
  show();
});
`;
