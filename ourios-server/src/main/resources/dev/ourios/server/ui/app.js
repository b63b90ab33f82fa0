// The Ourios web UI: plain JavaScript over the query API of the same origin. No framework, no build step.
// Every piece of state that shapes the view lives in the URL's hash, so a link reproduces the view.
'use strict';
(function () {
  const KEY_STORAGE = 'ourios.key';
  const PRESETS = { '15m': 15 * 60e3, '1h': 3600e3, '6h': 6 * 3600e3, '24h': 24 * 3600e3, '7d': 7 * 24 * 3600e3 };
  const PAGE_ROWS = 100;
  const SEVERITIES = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
  const FIELD_LIMIT = 40;
  const VALUE_LIMIT = 10;
  const TAIL_MAX_ROWS = 1000;

  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  };
  const SVG = 'http://www.w3.org/2000/svg';
  const svg = (tag, attrs) => {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  };

  // ---- state (mirrors the hash) ----
  const state = { page: 'explore', q: '', range: '1h', from: '', to: '', tz: 'utc', live: false, tenant: '' };
  let rowsShown = [];
  let cursor = null;
  let generation = 0; // bumps on every new search; late answers of an older one are dropped
  let tail = null;
  let tenants = null;
  let inFlight = null; // the AbortController of the current search's requests

  function readHash() {
    const p = new URLSearchParams(location.hash.replace(/^#/, ''));
    state.page = p.get('page') === 'store' ? 'store' : 'explore';
    state.q = p.get('q') || '';
    state.range = p.get('range') || '1h';
    if (state.range !== 'abs' && !PRESETS[state.range]) state.range = '1h';
    state.from = p.get('from') || '';
    state.to = p.get('to') || '';
    state.tz = p.get('tz') === 'local' ? 'local' : 'utc';
    state.live = p.get('live') === '1';
    state.tenant = p.get('tenant') || '';
  }

  function writeHash() {
    const p = new URLSearchParams();
    if (state.page !== 'explore') p.set('page', state.page);
    if (state.q) p.set('q', state.q);
    p.set('range', state.range);
    if (state.range === 'abs') { p.set('from', state.from); p.set('to', state.to); }
    if (state.tz !== 'utc') p.set('tz', state.tz);
    if (state.live) p.set('live', '1');
    if (state.tenant) p.set('tenant', state.tenant);
    const h = '#' + p.toString();
    if (location.hash !== h) history.replaceState(null, '', h);
  }

  // ---- time ----
  function window_() {
    if (state.range === 'abs') {
      const f = parseTime(state.from), t = parseTime(state.to);
      if (f === null || t === null || f >= t) return null;
      return { from: f, to: t };
    }
    const to = Date.now();
    return { from: to - PRESETS[state.range], to: to };
  }

  // Accepts RFC 3339 or "YYYY-MM-DD HH:MM[:SS]" read in the chosen zone.
  function parseTime(s) {
    if (!s) return null;
    const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(s.trim());
    if (m) {
      const parts = m.slice(1).map((x) => Number(x || 0));
      const d = state.tz === 'utc'
        ? Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5])
        : new Date(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5]).getTime();
      return isNaN(d) ? null : d;
    }
    const d = Date.parse(s);
    return isNaN(d) ? null : d;
  }

  const pad = (n, w) => String(n).padStart(w || 2, '0');
  function fmtTime(ms, withMillis) {
    const d = new Date(ms);
    const u = state.tz === 'utc';
    const s = (u ? d.getUTCFullYear() : d.getFullYear()) + '-' + pad((u ? d.getUTCMonth() : d.getMonth()) + 1) + '-'
      + pad(u ? d.getUTCDate() : d.getDate()) + ' ' + pad(u ? d.getUTCHours() : d.getHours()) + ':'
      + pad(u ? d.getUTCMinutes() : d.getMinutes()) + ':' + pad(u ? d.getUTCSeconds() : d.getSeconds());
    return withMillis ? s + '.' + pad(u ? d.getUTCMilliseconds() : d.getMilliseconds(), 3) : s;
  }
  // A row's time keeps its nanoseconds: the text after the seconds of its RFC 3339 "time".
  function rowTime(row) {
    const ms = Date.parse(row.time);
    const frac = /\.(\d+)Z$/.exec(row.time || '');
    return fmtTime(ms, false) + (frac ? '.' + frac[1].padEnd(3, '0').slice(0, 6) : '.000');
  }

  // ---- API ----
  class Refusal extends Error {
    constructor(status, body) {
      const e = body && body.error ? body.error : {};
      super(e.message || ('HTTP ' + status));
      this.status = status;
      this.field = e.field || null;
    }
  }

  function headers(extra) {
    const h = Object.assign({}, extra || {});
    const key = sessionStorage.getItem(KEY_STORAGE);
    if (key) h.Authorization = 'Bearer ' + key;
    if (state.tenant) h['X-Ourios-Tenant'] = encodeURIComponent(state.tenant);
    return h;
  }

  const RETRIES_WHEN_BUSY = 30;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // A 429 (every query slot busy: the server runs http.max_concurrent_queries at once) is retried after its
  // Retry-After, a few times, before it is shown.
  async function api(method, path, body, signal) {
    const init = { method: method, headers: headers(body ? { 'Content-Type': 'application/json' } : {}), signal: signal };
    if (body) init.body = JSON.stringify(body);
    let r = await fetch(path, init);
    for (let i = 0; r.status === 429 && i < RETRIES_WHEN_BUSY; i++) {
      const after = Number(r.headers.get('Retry-After'));
      await sleep(after > 0 ? Math.min(after, 5) * 1000 * (0.5 + Math.random() / 2) : 250);
      if (signal && signal.aborted) throw new DOMException('aborted', 'AbortError');
      r = await fetch(path, init);
    }
    let json = null;
    try { json = await r.json(); } catch (e) { json = null; }
    if (!r.ok) {
      const refusal = new Refusal(r.status, json);
      if (r.status === 401) askForKey(refusal.message);
      throw refusal;
    }
    return json;
  }

  function params(extra) {
    const w = window_();
    const p = new URLSearchParams();
    p.set('from', new Date(w.from).toISOString());
    p.set('to', new Date(w.to).toISOString());
    if (state.q.trim()) p.set('q', state.q.trim());
    for (const k in (extra || {})) p.set(k, extra[k]);
    return p.toString();
  }

  // ---- notices and refusals ----
  function notice(text) {
    const n = $('notice');
    n.textContent = text || '';
    n.hidden = !text;
  }

  function refusalText(e) {
    if (e instanceof Refusal) {
      if (e.status === 401) return 'Refused (401 Unauthorized): ' + e.message;
      if (e.status === 403) return 'Refused (403 Forbidden): ' + e.message;
      return 'Error ' + e.status + ': ' + e.message;
    }
    return 'Request failed: ' + e.message;
  }

  // ---- keys ----
  function askForKey(message) {
    $('keyform').hidden = false;
    $('explore').hidden = true;
    $('store').hidden = true;
    $('key-error').textContent = message && sessionStorage.getItem(KEY_STORAGE)
      ? 'Refused (401 Unauthorized): ' + message : '';
    stopTail();
    $('key').focus();
  }

  $('key-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const k = $('key').value.trim();
    if (!k) return;
    sessionStorage.setItem(KEY_STORAGE, k);
    $('key').value = '';
    $('keyform').hidden = true;
    tenants = null;
    start();
  });
  $('signout').addEventListener('click', () => {
    sessionStorage.removeItem(KEY_STORAGE);
    tenants = null;
    askForKey('');
  });

  async function loadTenants() {
    const t = await api('GET', '/v1/tenants');
    tenants = t;
    $('signout').hidden = !t.auth;
    const sel = $('tenant');
    sel.textContent = '';
    const names = t.tenants.slice();
    if (names.indexOf(t.tenant) < 0) names.unshift(t.tenant);
    if (state.tenant && names.indexOf(state.tenant) < 0) names.push(state.tenant);
    for (const n of names) sel.appendChild(el('option', null, n)).value = n;
    sel.value = state.tenant || t.tenant;
  }
  $('tenant').addEventListener('change', () => {
    state.tenant = $('tenant').value;
    writeHash();
    runSearch();
  });

  // ---- search box and its errors ----
  function showQueryError(e) {
    const box = $('q-error');
    if (!e) { box.hidden = true; $('q').removeAttribute('aria-invalid'); return; }
    const m = /column (\d+)/.exec(e.message);
    $('q-caret').textContent = m ? state.q + '\n' + ' '.repeat(Math.max(0, Number(m[1]) - 1)) + '^' : '';
    $('q-message').textContent = e.message;
    box.hidden = false;
    $('q').setAttribute('aria-invalid', 'true');
    if (m) {
      const col = Number(m[1]) - 1;
      $('q').setSelectionRange(col, col);
    }
  }

  // A value as the search language reads it: bare when it is one plain word or a number, else a phrase.
  function term(field, value) {
    const f = field.replace(/([\\:\s"()])/g, '\\$1');
    let v;
    if (typeof value === 'number' || typeof value === 'boolean') v = String(value);
    else if (/^[A-Za-z0-9_.@/][A-Za-z0-9_.@/-]*$/.test(value) && !/^(AND|OR|NOT)$/.test(value)) v = value;
    else v = '"' + String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
    return f + ':' + v;
  }

  function addTerm(field, value) {
    const t = term(field, value);
    state.q = state.q.trim() ? state.q.trim() + ' ' + t : t;
    $('q').value = state.q;
    closeDetail();
    runSearch();
  }

  // ---- rows ----
  function severityClass(n) {
    if (!n) return 'none';
    return SEVERITIES[Math.min(5, Math.floor((n - 1) / 4))];
  }
  function lineOf(row) {
    if (row.body !== null && row.body !== undefined) return String(row.body);
    const seps = row.separators || [], ps = row.params || [];
    let s = '';
    for (let i = 0; i < seps.length; i++) {
      s += seps[i];
      if (i < ps.length) s += paramText(ps[i]);
    }
    return s;
  }

  // A template parameter: {"type_tag": N, "value": "text"}.
  function paramText(p) {
    if (p === null || p === undefined) return '';
    return typeof p === 'object' ? String(p.value === undefined || p.value === null ? '' : p.value) : String(p);
  }

  function rowElement(row, fresh) {
    const li = el('li', fresh ? 'fresh' : null);
    li.tabIndex = -1;
    const sev = severityClass(row.severity_number);
    li.appendChild(el('span', 't', rowTime(row)));
    li.appendChild(el('span', 'sev sev-' + sev, row.severity_text || sev.toUpperCase()));
    li.appendChild(el('span', 'svc', row.service || ''));
    li.appendChild(el('span', 'line', lineOf(row)));
    li.addEventListener('click', () => openRow(li, row));
    li.addEventListener('keydown', (ev) => rowKey(ev, li, row));
    return li;
  }

  function rowKey(ev, li, row) {
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      ev.preventDefault();
      const next = ev.key === 'ArrowDown' ? li.nextElementSibling : li.previousElementSibling;
      if (next) focusRow(next);
      else if (ev.key === 'ArrowDown' && !$('more').hidden) $('more').focus();
    } else if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      openRow(li, row);
    } else if (ev.key === 'Home' || ev.key === 'End') {
      ev.preventDefault();
      const list = $('rows');
      const t = ev.key === 'Home' ? list.firstElementChild : list.lastElementChild;
      if (t) focusRow(t);
    }
  }

  // Roving tab stop: exactly one row is in the Tab order, arrows move it.
  function focusRow(li) {
    for (const r of $('rows').children) r.tabIndex = -1;
    li.tabIndex = 0;
    li.focus();
  }

  function appendRows(rows) {
    const list = $('rows');
    for (const r of rows) {
      rowsShown.push(r);
      list.appendChild(rowElement(r, false));
    }
    if (list.firstElementChild && !list.querySelector('li[tabindex="0"]')) list.firstElementChild.tabIndex = 0;
  }

  // ---- detail ----
  let openLi = null;
  function openRow(li, row) {
    if (openLi) openLi.classList.remove('open');
    openLi = li;
    li.classList.add('open');
    const t = $('detail-table');
    t.textContent = '';
    const add = (name, value, field) => {
      if (value === null || value === undefined || value === '') return;
      const tr = el('tr');
      tr.appendChild(el('th', null, name));
      const td = el('td');
      if (field) {
        const b = el('button', 'v', typeof value === 'object' ? JSON.stringify(value) : value);
        b.type = 'button';
        b.title = 'Add ' + term(field, value) + ' to the search';
        b.dataset.field = field;
        b.addEventListener('click', () => addTerm(field, value));
        td.appendChild(b);
      } else {
        td.textContent = typeof value === 'object' ? JSON.stringify(value) : String(value);
      }
      tr.appendChild(td);
      t.appendChild(tr);
    };
    add('time', row.time);
    add('observed time', row.observed_time_unix_nano);
    add('severity', (row.severity_text || '') + ' (' + row.severity_number + ')');
    if (row.severity_number) add('severity range', severityClass(row.severity_number), 'severity');
    add('service', row.service, 'service');
    add('line', lineOf(row));
    add('body', row.body, row.body === null ? null : 'body');
    add('trace_id', row.trace_id, 'trace_id');
    add('span_id', row.span_id, 'span_id');
    if (row.template_id && row.template_id !== '0') add('template_id', row.template_id, 'template_id');
    add('template version', row.template_version);
    add('params', row.params && row.params.length ? row.params.map(paramText).join(' | ') : null);
    add('event name', row.event_name);
    add('scope', row.scope_name, 'scope');
    add('scope version', row.scope_version);
    add('flags', row.flags);
    for (const [k, v] of Object.entries(objectOf(row.attributes))) add('attributes.' + k, v, 'attributes.' + k);
    for (const [k, v] of Object.entries(objectOf(row.resource_attributes))) add('resource.' + k, v, 'resource.' + k);
    for (const [k, v] of Object.entries(objectOf(row.scope_attributes))) add('scope attribute ' + k, v);
    add('tenant', row.tenant_id);
    $('detail').hidden = false;
    $('close-detail').focus();
  }
  // Attributes arrive as OTLP JSON (a list of {key, value: {stringValue | intValue | …}}), as canonical text.
  function objectOf(v) {
    if (!v) return {};
    if (typeof v === 'string') { try { v = JSON.parse(v); } catch (e) { return { '': v }; } }
    if (!Array.isArray(v)) return v || {};
    const out = {};
    for (const kv of v) if (kv && kv.key !== undefined) out[kv.key] = anyValue(kv.value);
    return out;
  }
  function anyValue(a) {
    if (!a || typeof a !== 'object') return a;
    if ('stringValue' in a) return a.stringValue;
    if ('intValue' in a) { const n = Number(a.intValue); return Number.isSafeInteger(n) ? n : String(a.intValue); }
    if ('doubleValue' in a) return Number(a.doubleValue);
    if ('boolValue' in a) return a.boolValue;
    if ('arrayValue' in a) return ((a.arrayValue || {}).values || []).map(anyValue);
    if ('kvlistValue' in a) return objectOf((a.kvlistValue || {}).values || []);
    if ('bytesValue' in a) return a.bytesValue;
    return a;
  }
  function closeDetail() {
    $('detail').hidden = true;
    if (openLi) {
      openLi.classList.remove('open');
      if (document.activeElement === $('close-detail') || $('detail').contains(document.activeElement)) focusRow(openLi);
    }
  }
  $('close-detail').addEventListener('click', closeDetail);

  // ---- histogram (stacked by severity, from /v1/stats) ----
  function seriesName(s) {
    if (s.other) return 'other';
    // {"group": {"severity": "error"}}: the values by group-by field
    const g = s.group && typeof s.group === 'object' ? Object.values(s.group)[0] : s.group;
    return g === null || g === undefined ? 'none' : String(g).toLowerCase();
  }

  function drawHistogram(stats, w) {
    const box = $('histogram');
    box.textContent = '';
    const series = stats.series || [];
    const n = Array.isArray(stats.buckets) ? stats.buckets.length : (series[0] ? series[0].counts.length : 0);
    const totals = new Array(n).fill(0);
    let total = 0;
    for (const s of series) for (let i = 0; i < n; i++) { totals[i] += s.counts[i] || 0; total += s.counts[i] || 0; }
    const max = Math.max(1, ...totals);
    const W = 1000, H = 120;
    const g = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, preserveAspectRatio: 'none', role: 'img',
      'aria-label': total + ' matching rows' });
    g.id = 'hist-svg';
    g.dataset.total = String(total);
    const bw = W / Math.max(1, n);
    const order = SEVERITIES.concat(['none', 'other']);
    const sorted = series.slice().sort((a, b) => order.indexOf(seriesName(a)) - order.indexOf(seriesName(b)));
    const base = new Array(n).fill(0);
    const origin = (Array.isArray(stats.buckets) && Date.parse(stats.buckets[0])) || w.from;
    const stepMs = stepOf(stats.step, w, n);
    for (const s of sorted) {
      const name = seriesName(s);
      for (let i = 0; i < n; i++) {
        const c = s.counts[i] || 0;
        if (!c) continue;
        const h = c / max * (H - 2);
        const r = svg('rect', { x: (i * bw).toFixed(2), y: (H - base[i] - h).toFixed(2),
          width: Math.max(0.5, bw - 0.5).toFixed(2), height: h.toFixed(2), class: 'bar fill-' + name });
        const title = svg('title', {});
        title.textContent = fmtTime(origin + i * stepMs) + ' ' + name + ': ' + c;
        r.appendChild(title);
        g.appendChild(r);
        base[i] += h;
      }
    }
    box.appendChild(g);
    const axis = el('div', 'axis');
    const end = origin + n * stepMs;
    for (const t of [origin, (origin + end) / 2, end]) axis.appendChild(el('span', null, fmtTime(t)));
    box.appendChild(axis);
    const legend = el('div', 'legend');
    const t = el('span', null, total.toLocaleString('en') + ' rows');
    t.id = 'hist-total';
    t.dataset.total = String(total);
    legend.appendChild(t);
    for (const s of sorted) {
      const name = seriesName(s);
      const item = el('span');
      const sw = el('i', 'fill-' + name);
      item.appendChild(sw);
      item.appendChild(document.createTextNode(name + ' ' + (s.total !== undefined ? s.total
        : s.counts.reduce((a, b) => a + b, 0)).toLocaleString('en')));
      legend.appendChild(item);
    }
    box.appendChild(legend);
  }
  // "500ms", "10s", "5m", "1h", "1d": the step as /v1/stats writes it
  function stepOf(step, w, n) {
    const m = /^(\d+)(ms|s|m|h|d)$/.exec(step || '');
    if (m) return Number(m[1]) * { ms: 1, s: 1e3, m: 60e3, h: 3600e3, d: 86400e3 }[m[2]];
    return (w.to - w.from) / Math.max(1, n);
  }

  // ---- fields ----
  async function loadFields(gen, signal) {
    const list = $('field-list');
    let fields;
    try {
      fields = await api('GET', '/v1/fields?' + params({ limit: FIELD_LIMIT }), null, signal);
    } catch (e) {
      if (gen === generation && e.name !== 'AbortError') {
        list.textContent = '';
        list.appendChild(el('li', 'error', refusalText(e)));
      }
      return;
    }
    if (gen !== generation) return;
    list.textContent = '';
    const names = ['service', 'severity'];
    for (const f of (fields.fields || [])) {
      const name = f.name || f.field || f.key;
      if (name && names.indexOf(name) < 0) names.push(name);
    }
    const counts = {};
    for (const f of (fields.fields || [])) counts[f.name || f.field || f.key] = f.rows !== undefined ? f.rows : f.count;
    for (const name of names) {
      const li = el('li');
      const b = el('button', null, name);
      b.type = 'button';
      b.setAttribute('aria-expanded', 'false');
      if (counts[name] !== undefined) b.appendChild(el('span', 'count', counts[name]));
      const values = el('ul');
      values.hidden = true;
      b.addEventListener('click', () => toggleValues(b, values, name));
      li.appendChild(b);
      li.appendChild(values);
      list.appendChild(li);
    }
    performance.mark('ourios-fields-' + gen);
    document.body.dataset.fields = String(gen);
  }

  async function toggleValues(button, ul, name) {
    if (!ul.hidden) { ul.hidden = true; button.setAttribute('aria-expanded', 'false'); return; }
    ul.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    ul.textContent = '';
    ul.appendChild(el('li', null, '…'));
    try {
      const r = await api('GET', '/v1/fields/' + encodeURIComponent(name) + '/values?' + params({ limit: VALUE_LIMIT }));
      ul.textContent = '';
      for (const v of (r.values || [])) {
        const value = v.value !== undefined ? v.value : v.name;
        if (value === null || value === undefined) continue;
        const li = el('li');
        const b = el('button', null, String(value));
        b.type = 'button';
        b.dataset.field = name;
        b.appendChild(el('span', 'count', v.rows !== undefined ? v.rows : v.count));
        b.addEventListener('click', () => addTerm(name, value));
        li.appendChild(b);
        ul.appendChild(li);
      }
      if (!ul.children.length) ul.appendChild(el('li', null, 'no values'));
    } catch (e) {
      ul.textContent = '';
      ul.appendChild(el('li', 'error', refusalText(e)));
    }
  }

  // ---- search ----
  async function runSearch() {
    const gen = ++generation;
    if (inFlight) inFlight.abort();
    inFlight = new AbortController();
    const signal = inFlight.signal;
    stopTail();
    writeHash();
    showQueryError(null);
    notice('');
    closeDetail();
    const w = window_();
    if (!w) { notice('The time range is not valid: give from and to as RFC 3339 or YYYY-MM-DD HH:MM, from before to.'); return; }
    performance.mark('ourios-search-start-' + gen);
    rowsShown = [];
    cursor = null;
    $('rows').textContent = '';
    $('more').hidden = true;
    $('summary').textContent = 'Searching…';
    const from = new Date(w.from).toISOString(), to = new Date(w.to).toISOString();
    const q = state.q.trim();
    const body = { from: from, to: to, limit: PAGE_ROWS, order: 'newest_first' };
    if (q) body.q = q;
    const statsBody = { from: from, to: to, group_by: ['severity'] };
    if (q) statsBody.q = q;
    const rowsP = api('POST', '/v1/query', body, signal).then((r) => {
      if (gen !== generation) return;
      appendRows(r.rows || []);
      cursor = r.cursor || null;
      $('more').hidden = !cursor;
      $('summary').textContent = rowsShown.length + ' rows shown' + (cursor ? ', more available' : '');
      performance.mark('ourios-rows-' + gen);
    });
    const statsP = api('POST', '/v1/stats', statsBody, signal).then((s) => {
      if (gen !== generation) return;
      drawHistogram(s, w);
      performance.mark('ourios-histogram-' + gen);
    });
    const results = await Promise.allSettled([rowsP, statsP]);
    if (gen !== generation) return;
    // after the rows and the histogram: the server runs two queries at once by default
    loadFields(gen, signal);
    const failed = results.filter((r) => r.status === 'rejected').map((r) => r.reason)
      .filter((e) => e.name !== 'AbortError');
    const qError = failed.find((e) => e instanceof Refusal && e.status === 400 && e.field === 'q');
    if (qError) {
      showQueryError(qError);
      $('summary').textContent = '';
    } else if (failed.length) {
      notice(refusalText(failed[0]));
      if (!rowsShown.length) $('summary').textContent = '';
    }
    performance.mark('ourios-search-done-' + gen);
    document.body.dataset.searches = String(gen);
    if (state.live && !failed.length) startTail();
  }

  $('more').addEventListener('click', async () => {
    if (!cursor) return;
    const gen = generation;
    const w = window_();
    const body = { from: new Date(w.from).toISOString(), to: new Date(w.to).toISOString(), limit: PAGE_ROWS,
      order: 'newest_first', cursor: cursor };
    if (state.q.trim()) body.q = state.q.trim();
    const before = $('rows').lastElementChild;
    try {
      const r = await api('POST', '/v1/query', body);
      if (gen !== generation) return;
      appendRows(r.rows || []);
      cursor = r.cursor || null;
      $('more').hidden = !cursor;
      $('summary').textContent = rowsShown.length + ' rows shown' + (cursor ? ', more available' : '');
      if (before && before.nextElementSibling) focusRow(before.nextElementSibling);
    } catch (e) {
      notice(refusalText(e));
    }
  });

  // ---- live tail ----
  // EventSource cannot send an Authorization header, and a key in the URL would end up in logs and history, so the
  // tail is read with fetch() and a stream reader: the same headers as every other call, server-sent events parsed
  // here (an NDJSON line is read too).
  function startTail() {
    stopTail();
    const ctrl = new AbortController();
    tail = ctrl;
    const p = new URLSearchParams();
    if (state.q.trim()) p.set('q', state.q.trim());
    $('summary').textContent = (rowsShown.length ? rowsShown.length + ' rows shown; ' : '') + 'live tail on';
    (async () => {
      try {
        const r = await fetch('/v1/tail' + (p.toString() ? '?' + p : ''), { headers: headers({ Accept: 'text/event-stream' }),
          signal: ctrl.signal });
        if (!r.ok) {
          let j = null; try { j = await r.json(); } catch (e) { j = null; }
          throw new Refusal(r.status, j);
        }
        const reader = r.body.getReader();
        const dec = new TextDecoder();
        let buf = '';
        let data = [];
        let event = 'message';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += dec.decode(value, { stream: true });
          let nl;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl).replace(/\r$/, '');
            buf = buf.slice(nl + 1);
            if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
            else if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith(': tailing')) document.body.dataset.tail = 'subscribed';
            else if (line === '') {
              if (data.length) tailEvent(event, data.join('\n'));
              data = [];
              event = 'message';
            }
          }
        }
        if (tail === ctrl) $('summary').textContent = 'live tail ended by the server';
      } catch (e) {
        if (e.name !== 'AbortError' && tail === ctrl) notice('Live tail: ' + refusalText(e));
      }
    })();
  }
  // Events of GET /v1/tail: a row per "message" event, "dropped" when this client fell behind, "end" on stop.
  function tailEvent(event, text) {
    let row;
    try { row = JSON.parse(text); } catch (e) { return; }
    if (!row || typeof row !== 'object') return;
    if (event === 'dropped') { notice('Live tail: ' + row.dropped + ' rows dropped (this page fell behind)'); return; }
    if (event === 'end') { $('summary').textContent = 'live tail ended: ' + (row.reason || 'by the server'); return; }
    const list = $('rows');
    for (const r of [row]) {
      rowsShown.unshift(r);
      list.insertBefore(rowElement(r, true), list.firstElementChild);
      while (list.children.length > TAIL_MAX_ROWS) list.removeChild(list.lastElementChild);
    }
  }
  function stopTail() {
    if (tail) { tail.abort(); tail = null; }
    delete document.body.dataset.tail;
  }
  $('live').addEventListener('change', () => {
    state.live = $('live').checked;
    writeHash();
    if (state.live) startTail(); else { stopTail(); $('summary').textContent = rowsShown.length + ' rows shown'; }
  });

  // ---- store page ----
  const bytes = (n) => {
    if (n === null || n === undefined) return '';
    const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let i = 0; let v = n;
    while (v >= 1024 && i < u.length - 1) { v /= 1024; i++; }
    return (i ? v.toFixed(1) : v) + ' ' + u[i];
  };
  const dur = (s) => s === null || s === undefined ? 'none' : (s % 86400 === 0 ? s / 86400 + 'd'
    : s % 3600 === 0 ? s / 3600 + 'h' : s + 's');
  function table(head, rows) {
    const t = el('table');
    const tr = el('tr');
    for (const h of head) tr.appendChild(el('th', null, h));
    t.appendChild(tr);
    for (const r of rows) {
      const row = el('tr');
      for (const c of r) row.appendChild(el('td', null, c));
      t.appendChild(row);
    }
    return t;
  }
  function dl(pairs) {
    const d = el('dl');
    for (const [k, v] of pairs) { d.appendChild(el('dt', null, k)); d.appendChild(el('dd', null, v)); }
    return d;
  }
  async function loadStore() {
    const box = $('status');
    box.textContent = 'Loading…';
    let s;
    try {
      s = await api('GET', '/v1/status');
    } catch (e) {
      box.textContent = '';
      box.appendChild(el('p', 'error', refusalText(e) + (e.status === 403 ? ' — the store page needs a key with the admin scope.' : '')));
      return;
    }
    box.textContent = '';
    box.appendChild(el('p', null, 'Store figures as of ' + fmtTime(Date.parse(s.store.computed_at)) + ' (' + state.tz.toUpperCase()
      + '; walked in ' + s.store.walk_seconds.toFixed(2) + ' s, at most every ' + s.store.max_age_seconds + ' s).'));
    box.appendChild(el('h2', null, 'Tenants'));
    box.appendChild(table(['tenant', 'hours', 'live files', 'bytes', 'files < 128 MiB'], s.store.tenants.map((t) =>
      [t.tenant, t.hours, t.live_files, bytes(t.bytes), (t.small_file_share * 100).toFixed(0) + '%'])));
    const c = s.compaction;
    box.appendChild(el('h2', null, 'Compaction'));
    box.appendChild(dl([['daemon', c.enabled ? 'on, every ' + dur(c.interval_seconds) : 'off'],
      ['backlog', c.backlog_partitions + ' sealed partition(s) waiting'
        + (c.backlog_named.length ? ': ' + c.backlog_named.join(', ') : '')]]));
    box.appendChild(table(['sweep', 'started', 'duration', 'result', 'committed', 'noop', 'errors', 'GC deleted'],
      c.last_sweeps.map((w) => [w.sweep, fmtTime(Date.parse(w.started)), w.duration_seconds.toFixed(2) + ' s', w.result,
        w.committed, w.noop, w.errors, w.gc_deleted + ' (' + bytes(w.gc_bytes) + ')'])));
    const i = s.ingest;
    box.appendChild(el('h2', null, 'Ingest'));
    box.appendChild(dl(i.enabled ? [['records/s', i.records_per_second.toFixed(1)], ['accepted', i.records_accepted],
      ['refused', i.records_rejected], ['WAL', bytes(i.wal_bytes)],
      ['quarantined', i.quarantined_segments === null ? 'unknown (the WAL directory cannot be listed)'
        : i.quarantined_segments + ' segment(s), ' + bytes(i.quarantined_bytes)
          + (i.quarantined_segments ? ': see ourios wal quarantine list' : '')]] : [['receiver', 'off']]));
    const v = s.iceberg;
    box.appendChild(el('h2', null, 'Iceberg view'));
    box.appendChild(dl(v.enabled ? [['last sync', v.last_sync ? fmtTime(Date.parse(v.last_sync)) : 'not yet'],
      ['version', v.version], ['live files', v.live_files], ['pending', v.pending ? 'yes' : 'no'],
      ['last error', v.last_error || 'none']] : [['sync', 'off']]));
    box.appendChild(el('h2', null, 'Retention'));
    const per = Object.entries(s.retention.tenants_seconds).map(([t, d]) => [t, dur(d)]);
    box.appendChild(dl([['default', dur(s.retention.default_seconds)]].concat(per)));
  }

  // ---- pages ----
  function show() {
    $('keyform').hidden = true;
    $('explore').hidden = state.page !== 'explore';
    $('store').hidden = state.page !== 'store';
    $('nav-explore').setAttribute('aria-current', state.page === 'explore' ? 'page' : 'false');
    $('nav-store').setAttribute('aria-current', state.page === 'store' ? 'page' : 'false');
    $('q').value = state.q;
    $('preset').value = state.range;
    $('absolute').hidden = state.range !== 'abs';
    $('from').value = state.from;
    $('to').value = state.to;
    $('tz').textContent = state.tz === 'utc' ? 'UTC' : 'Local';
    $('live').checked = state.live;
  }

  async function start() {
    readHash();
    try {
      if (!tenants) await loadTenants();
    } catch (e) {
      if (!(e instanceof Refusal && e.status === 401)) notice(refusalText(e));
      return;
    }
    show();
    if (state.page === 'store') { stopTail(); loadStore(); } else runSearch();
  }

  $('search-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    state.q = $('q').value;
    runSearch();
  });
  $('preset').addEventListener('change', () => {
    const v = $('preset').value;
    if (v === 'abs') {
      const w = window_() || { from: Date.now() - 3600e3, to: Date.now() };
      state.from = fmtTime(w.from);
      state.to = fmtTime(w.to);
      state.range = 'abs';
      show();
      $('from').focus();
      writeHash();
      return;
    }
    state.range = v;
    show();
    runSearch();
  });
  for (const id of ['from', 'to']) {
    $(id).addEventListener('change', () => { state[id] = $(id).value; });
  }
  $('tz').addEventListener('click', () => {
    const w = window_();
    state.tz = state.tz === 'utc' ? 'local' : 'utc';
    if (state.range === 'abs' && w) { state.from = fmtTime(w.from); state.to = fmtTime(w.to); }
    show();
    writeHash();
    // times shown are re-rendered in the new zone
    const rows = rowsShown.slice();
    $('rows').textContent = '';
    rowsShown = [];
    appendRows(rows);
  });
  window.addEventListener('hashchange', () => {
    const page = state.page;
    readHash();
    if (page !== state.page || $('q').value !== state.q) start();
  });

  document.addEventListener('keydown', (ev) => {
    const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement.tagName);
    if (ev.key === '/' && !typing && state.page === 'explore') {
      ev.preventDefault();
      $('q').focus();
      $('q').select();
    } else if (ev.key === 'Escape') {
      if (!$('detail').hidden) closeDetail();
      else if (document.activeElement === $('q')) $('q').blur();
    } else if (ev.key === 'ArrowDown' && document.activeElement === $('q')) {
      const first = $('rows').firstElementChild;
      if (first) { ev.preventDefault(); focusRow(first); }
    }
  });

  start();
})();
