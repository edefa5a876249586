/*
 * Cairn web page: reads the coordinator's REST API (same origin) every 2 s and renders a summary of every job, the
 * jobs list, the selected job's checkpoints (table, plots, counts) and checkpoint configuration, and the selected
 * checkpoint's subtask acknowledgements, with the host of each subtask still awaited. Routes are in the
 * hash: #/ (jobs), #/jobs/{jobId}, #/jobs/{jobId}/checkpoints/{checkpointId}. A 401 or 403 shows a field for a
 * bearer token, kept in sessionStorage for this tab only.
 */
'use strict';
(function () {
  const C = window.CairnCharts;
  const h = C.html;
  const REFRESH_MS = 2000;
  const TOKEN_KEY = 'cairn.token';
  const byId = (id) => document.getElementById(id);
  let route = parseRoute(location.hash);
  let refreshing = false;
  let again = false;

  /** A failed API call: the HTTP status (0 when nothing answered), the path asked and what went wrong. */
  class ApiError extends Error {
    constructor(status, path, message) {
      super(message);
      this.status = status;
      this.path = path;
    }
  }

  function parseRoute(hash) {
    const parts = hash.replace(/^#\/?/, '').split('/').filter((p) => p.length > 0).map(decodeURIComponent);
    const selected = { job: null, checkpoint: null };
    if (parts[0] === 'jobs' && parts.length >= 2) {
      selected.job = parts[1];
      if (parts[2] === 'checkpoints' && /^\d+$/.test(parts[3] || '')) {
        selected.checkpoint = Number(parts[3]);
      }
    }
    return selected;
  }

  const jobHash = (job) => '#/jobs/' + encodeURIComponent(job);
  const checkpointHash = (job, id) => jobHash(job) + '/checkpoints/' + id;
  const jobPath = (job) => '/jobs/' + encodeURIComponent(job);

  async function api(path) {
    const headers = { Accept: 'application/json' };
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) {
      headers.Authorization = 'Bearer ' + token;
    }
    let response;
    try {
      response = await fetch(path, { headers, cache: 'no-store' });
    } catch (e) {
      throw new ApiError(0, path, 'the coordinator did not answer (' + e.message + ')');
    }
    const text = await response.text();
    let body = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch (e) {
      throw new ApiError(response.status, path, 'the answer is not JSON: ' + text.slice(0, 200));
    }
    if (!response.ok) {
      throw new ApiError(response.status, path, body && body.error ? body.error : response.statusText);
    }
    const servedBy = response.headers.get('X-Cairn-Served-By');
    byId('served-by').textContent = servedBy ? 'answered by ' + servedBy : '';
    return body;
  }

  function badge(status) {
    return h('span', { class: 'badge ' + String(status).toLowerCase().replace('_', '-'), 'data-status': status },
      String(status).replace('_', ' ').toLowerCase());
  }

  function ago(ms) {
    if (ms === null || ms === undefined) {
      return '';
    }
    const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
    return s < 60 ? s + ' s ago' : s < 3600 ? Math.round(s / 60) + ' min ago' : Math.round(s / 3600) + ' h ago';
  }

  function table(id, headings, rows, empty) {
    return h('table', { id, class: 'grid-table' },
      h('thead', {}, h('tr', {}, headings.map((t) => h('th', {}, t)))),
      h('tbody', {}, rows.length > 0 ? rows
        : [h('tr', { class: 'empty-row' }, h('td', { colspan: headings.length }, empty))]));
  }

  /** A tile of the summary: a figure and what it counts; {@code attrs} names it for tests and styles. */
  function tile(attrs, value, label) {
    return h('div', Object.assign({ class: 'tile' }, attrs), h('span', { class: 'value' }, String(value)),
      h('span', { class: 'label' }, label));
  }

  /** Every job at a glance (GET /jobs): jobs by status, checkpoints completed and failed, each job's latest. */
  function renderSummary(listing) {
    const byStatus = new Map();
    let completed = 0;
    let failed = 0;
    let pending = 0;
    listing.jobs.forEach((job) => {
      byStatus.set(job.status, (byStatus.get(job.status) || 0) + 1);
      completed += job.counts.completed;
      failed += job.counts.failed;
      pending += job.pending_checkpoints;
    });
    const statuses = [...byStatus.keys()].sort().map((status) => tile({ 'data-jobs-status': status,
      class: 'tile status ' + String(status).toLowerCase().replace('_', '-') }, byStatus.get(status),
    String(status).replace('_', ' ').toLowerCase() + ' job' + (byStatus.get(status) === 1 ? '' : 's')));
    const latest = listing.jobs.map((job) => {
      const last = job.last_checkpoint;
      const when = last !== null && last.id === job.latest_completed_id ? ' · ' + ago(last.end_timestamp) : '';
      return h('tr', { 'data-job-id': job.id }, h('td', {}, h('a', { href: jobHash(job.id) }, job.id)),
        job.latest_completed_id === null ? h('td', { class: 'muted' }, 'none yet')
          : h('td', {}, `#${job.latest_completed_id}${when}`));
    });
    byId('summary').replaceChildren(h('div', { class: 'summary' },
      h('div', { class: 'tiles', id: 'jobs-by-status' }, statuses.length > 0 ? statuses
        : [h('p', { class: 'muted' }, 'No job is registered yet.')]),
      h('div', { class: 'tiles', id: 'checkpoint-totals' },
        tile({ 'data-total': 'completed', class: 'tile completed' }, completed, 'checkpoints completed'),
        tile({ 'data-total': 'failed', class: 'tile failed' }, failed, 'checkpoints failed'),
        tile({ 'data-total': 'pending', class: 'tile in-progress' }, pending, 'pending now'))),
    table('latest-table', ['Job', 'Latest completed checkpoint'], latest, 'No job is registered yet.'));
  }

  function renderJobs(listing) {
    const rows = listing.jobs.map((job) => {
      const last = job.last_checkpoint;
      const lastCell = last === null ? h('td', { class: 'muted' }, 'none yet')
        : h('td', {}, badge(last.status), ` #${last.id} · ${C.duration(last.end_to_end_duration)} · `
          + `${C.bytes(last.state_size)} · ${ago(last.end_timestamp)}`);
      return h('tr', { 'data-job-id': job.id, class: job.id === route.job ? 'selected' : null },
        h('td', {}, h('a', { href: jobHash(job.id) }, job.id)), h('td', {}, badge(job.status)),
        h('td', { class: 'num' }, String(job.pending_checkpoints)),
        h('td', { class: 'num' }, String(job.counts.completed)), h('td', { class: 'num' }, String(job.counts.failed)),
        h('td', { class: 'num' }, job.latest_completed_id === null ? '–' : String(job.latest_completed_id)),
        lastCell);
    });
    byId('jobs').replaceChildren(table('jobs-table',
      ['Job', 'Status', 'Pending', 'Completed', 'Failed', 'Latest completed', 'Last ended checkpoint'], rows,
      'No job is registered yet.'));
    const unreachable = listing.unreachable.map((u) => h('li', {}, `${u.instance}: ${u.reason}`));
    byId('jobs-unreachable').replaceChildren(...(unreachable.length === 0 ? []
      : [h('p', {}, 'Some jobs may be missing; not answering:'), h('ul', {}, unreachable)]));
  }

  function renderJob(job, stats, shownCheckpoint) {
    byId('job-title').textContent = job;
    const history = stats.history.slice().reverse();
    const points = (measure) => history.map((c) => ({ id: c.id, value: c[measure] || 0, status: c.status,
      at: c.trigger_timestamp }));
    byId('job-summary').replaceChildren(C.countsBar(stats.counts),
      h('div', { class: 'plots' },
        C.lineChart('plot-duration', 'End-to-end duration', points('end_to_end_duration'), C.duration),
        C.lineChart('plot-size', 'State size', points('state_size').filter((p) => p.status === 'COMPLETED'),
          C.bytes)));
    const rows = stats.pending.concat(stats.history).map((c) => h('tr', { 'data-checkpoint-id': c.id,
      'data-status': c.status, class: c.id === shownCheckpoint ? 'selected' : null },
    h('td', {}, h('a', { href: checkpointHash(job, c.id) }, '#' + c.id)), h('td', {}, badge(c.status)),
    h('td', {}, c.checkpoint_type.toLowerCase() + (c.periodic ? '' : ' (manual)')),
    h('td', {}, C.clock(c.trigger_timestamp)),
    h('td', { class: 'num' }, `${c.num_acknowledged_subtasks}/${c.num_subtasks}`),
    h('td', { class: 'num' }, C.duration(c.end_to_end_duration)), h('td', { class: 'num' }, C.bytes(c.state_size)),
    h('td', { class: 'reason' }, c.failure_reason ? `${c.failure_reason}: ${c.failure_message || ''}` : '')));
    byId('checkpoints').replaceChildren(table('checkpoints-table',
      ['Id', 'Status', 'Type', 'Triggered', 'Acks', 'Duration', 'State size', 'Failure'], rows,
      'No checkpoint was triggered yet.'));
  }

  /** The job's checkpoint configuration as registered (GET .../checkpoints/config), as Flink's Configuration tab. */
  function renderConfig(config) {
    const text = (value) => (value === null || value === undefined ? '–' : String(value));
    const rows = [
      ['mode', 'Checkpointing mode', text(config.mode).replace(/_/g, ' ')],
      ['interval', 'Interval', C.duration(config.interval)],
      ['timeout', 'Timeout', C.duration(config.timeout)],
      ['min_pause', 'Minimum pause between checkpoints', C.duration(config.min_pause)],
      ['max_concurrent', 'Maximum concurrent checkpoints', text(config.max_concurrent)],
      ['tolerable_failed_checkpoints', 'Tolerable failed checkpoints', text(config.tolerable_failed_checkpoints)],
      ['storage_base_location', 'Checkpoint storage', text(config.storage_base_location)],
      ['retained', 'Retained checkpoints', text(config.retained)],
      ['unaligned_checkpoints', 'Unaligned checkpoints', config.unaligned_checkpoints === true ? 'enabled'
        : config.unaligned_checkpoints === false ? 'disabled' : '–'],
      ['backup_type', 'Backup type', text(config.backup_type).toLowerCase()],
    ].map(([key, label, value]) => h('tr', { 'data-key': key }, h('th', { scope: 'row' }, label),
      h('td', {}, value)));
    byId('checkpoint-config').replaceChildren(h('table', { id: 'config-table', class: 'grid-table config' },
      h('tbody', {}, rows)));
  }

  function renderSavepoints(listing) {
    const point = listing.restore_point;
    byId('restore-point').textContent = point === null ? 'No restore point yet: a worker starting now starts fresh.'
      : `Restore point: ${point.checkpoint_type.toLowerCase()} #${point.id} (${point.location})`
        + (point.chosen ? `, chosen by a user (${point.restore_mode})` : '');
    const rows = listing.savepoints.map((s) => h('tr', { 'data-savepoint-id': s.id,
      class: s.restore_point ? 'selected' : null },
    h('td', {}, '#' + s.id), h('td', {}, s.location), h('td', {}, C.clock(s.completion_timestamp)),
    h('td', { class: 'num' }, C.bytes(s.state_size)),
    h('td', {}, s.stopped_job ? 'stopped the job' + (s.post_checkpoint_action === 'TERMINATE' ? ' (drain)' : '')
      : ''),
    h('td', {}, s.restore_point ? 'restore point' : '')));
    byId('savepoints').replaceChildren(table('savepoints-table',
      ['Id', 'Location', 'Completed', 'State size', 'Stop', ''], rows, 'The job keeps no savepoint.'));
  }

  function renderCheckpoint(detail, chosen) {
    const missing = detail.missing_subtasks;
    byId('checkpoint-title').replaceChildren(`Checkpoint #${detail.id} `, badge(detail.status),
      chosen ? '' : h('span', { class: 'muted' }, ' newest; pick another in the table'));
    const facts = [['Triggered', C.clock(detail.trigger_timestamp)],
      ['Acknowledged', `${detail.num_acknowledged_subtasks} of ${detail.num_subtasks} subtasks`],
      [detail.status === 'IN_PROGRESS' ? 'Latest ack after' : 'Duration', C.duration(detail.end_to_end_duration)],
      ['State size', C.bytes(detail.state_size)]];
    if (detail.expires_at) {
      facts.push(['Expires', C.clock(detail.expires_at)]);
    }
    if (detail.failure_reason) {
      facts.push(['Failure', `${detail.failure_reason}: ${detail.failure_message || ''}`]);
    }
    const missingNote = missing.length === 0 ? [] : [h('p', { id: 'missing-subtasks', class: 'missing-note' },
      `Waiting for ${missing.length} subtask${missing.length === 1 ? '' : 's'}: `,
      missing.map((s, i) => [i > 0 ? ', ' : '', h('span', { class: 'missing-subtask',
        'data-subtask': `${s.task_id}#${s.index}`, 'data-host': s.host || null }, `${s.task_id} #${s.index}`),
      s.host ? h('span', { class: 'host' }, ` on ${s.host}`) : '']))];
    byId('checkpoint-body').replaceChildren(
      h('dl', { class: 'facts' }, facts.map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, v)))),
      ...missingNote, C.ackTimeline(detail, Date.now()));
  }

  function showError(errors) {
    const box = byId('error');
    box.hidden = errors.length === 0;
    box.replaceChildren(...errors.map((e) => h('p', {}, h('code', {}, 'GET ' + e.path),
      e.status ? ` answered ${e.status}: ` : ': ', e.message)));
    const auth = errors.find((e) => e.status === 401 || e.status === 403);
    byId('auth').hidden = !auth && !sessionStorage.getItem(TOKEN_KEY);
    byId('auth-message').textContent = auth ? auth.message : 'Using the bearer token of this tab.';
    byId('token-forget').hidden = !sessionStorage.getItem(TOKEN_KEY);
  }

  async function refresh() {
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = true;
    document.body.dataset.busy = 'true';
    const errors = [];
    const attempt = async (work) => {
      try {
        await work();
        return true;
      } catch (e) {
        errors.push(e instanceof ApiError ? e : new ApiError(0, '?', String(e)));
        return false;
      }
    };
    const selected = route;
    try {
      if (!(await attempt(async () => {
        const listing = await api('/jobs');
        renderSummary(listing);
        renderJobs(listing);
      })) && byId('jobs-loading')) {
        byId('jobs-loading').textContent = 'Not loaded: see above.';
      }
      byId('job-view').hidden = selected.job === null;
      if (selected.job !== null) {
        byId('job-title').textContent = selected.job;
        let stats = null;
        await attempt(async () => {
          stats = await api(jobPath(selected.job) + '/checkpoints');
        });
        const newest = stats === null ? null : (stats.pending[0] || stats.history[0] || null);
        const shown = selected.checkpoint !== null ? selected.checkpoint : newest && newest.id;
        if (stats !== null) {
          renderJob(selected.job, stats, shown);
        }
        await attempt(async () => renderConfig(await api(jobPath(selected.job) + '/checkpoints/config')));
        await attempt(async () => renderSavepoints(await api(jobPath(selected.job) + '/savepoints')));
        byId('checkpoint-view').hidden = shown === null;
        if (shown !== null && !(await attempt(async () => renderCheckpoint(
          await api(jobPath(selected.job) + '/checkpoints/details/' + shown), selected.checkpoint !== null)))) {
          byId('checkpoint-body').replaceChildren();
        }
      }
      showError(errors);
      byId('refreshed').textContent = 'updated ' + new Date().toLocaleTimeString([], { hour12: false });
      document.body.dataset.refreshed = String(Date.now());
    } finally {
      refreshing = false;
      document.body.dataset.busy = 'false';
      if (again) {
        again = false;
        refresh();
      }
    }
  }

  function start() {
    byId('token-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const token = byId('token-input').value.trim();
      if (token) {
        sessionStorage.setItem(TOKEN_KEY, token);
      }
      byId('token-input').value = '';
      refresh();
    });
    byId('token-forget').addEventListener('click', () => {
      sessionStorage.removeItem(TOKEN_KEY);
      refresh();
    });
    window.addEventListener('hashchange', () => {
      route = parseRoute(location.hash);
      refresh();
    });
    setInterval(() => {
      if (byId('auto-refresh').checked && !document.hidden) {
        refresh();
      }
    }, REFRESH_MS);
    refresh();
  }

  document.addEventListener('DOMContentLoaded', start);
}());
