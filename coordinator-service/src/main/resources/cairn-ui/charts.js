/*
 * Cairn web page: the plots, drawn as inline SVG (no library, no network). Each function takes the REST API's
 * JSON and returns a DOM element; nothing here fetches or keeps state. Exposed as window.CairnCharts.
 */
'use strict';
(function () {
  const SVG = 'http://www.w3.org/2000/svg';

  /** An SVG element with attributes; children may be elements or strings (text nodes). */
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    Object.entries(attrs || {}).forEach(([name, value]) => {
      if (value !== null && value !== undefined) {
        node.setAttribute(name, String(value));
      }
    });
    children.flat(Infinity).forEach((child) => node.append(child));
    return node;
  }

  /** An HTML element with attributes (class, id, data-*) and children. */
  function html(tag, attrs, ...children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([name, value]) => {
      if (value !== null && value !== undefined && value !== false) {
        node.setAttribute(name, value === true ? '' : String(value));
      }
    });
    children.flat(Infinity).forEach((child) => {
      if (child !== null && child !== undefined) {
        node.append(child);
      }
    });
    return node;
  }

  function duration(ms) {
    if (ms === null || ms === undefined) {
      return '–';
    }
    if (ms < 1000) {
      return Math.round(ms) + ' ms';
    }
    if (ms < 60000) {
      return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
    }
    const minutes = Math.floor(ms / 60000);
    const seconds = Math.round((ms % 60000) / 1000);
    return seconds === 0 ? minutes + ' min' : minutes + ' min ' + String(seconds).padStart(2, '0') + ' s';
  }

  function bytes(n) {
    if (n === null || n === undefined) {
      return '–';
    }
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let value = n;
    let unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return (unit === 0 ? String(value) : value.toFixed(value < 10 ? 2 : 1)) + ' ' + units[unit];
  }

  function clock(ms) {
    return ms === null || ms === undefined ? '–' : new Date(ms).toLocaleTimeString([], { hour12: false });
  }

  /** An axis label: "800 KiB" rather than "800.0 KiB". */
  function tick(text) {
    return text.replace(/\.0+(?= )/, '');
  }

  /** A round upper bound for an axis, and its tick step: 0, step, 2 step, ... >= max. */
  function niceScale(max, ticks) {
    if (!(max > 0)) {
      return { max: 1, step: 1 };
    }
    const raw = max / ticks;
    const magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw);
    return { max: Math.ceil(max / step) * step, step };
  }

  /** Like niceScale, in round units of what is measured: KiB, MiB... for bytes, seconds or minutes for durations. */
  function axisScale(max, ticks, format) {
    let unit = 1;
    if (format === bytes && max >= 1024) {
      unit = Math.pow(1024, Math.floor(Math.log(max) / Math.log(1024)));
    } else if (format === duration) {
      unit = max >= 120000 ? 60000 : max >= 2000 ? 1000 : 1;
    }
    const scale = niceScale(max / unit, ticks);
    return { max: scale.max * unit, step: scale.step * unit };
  }

  /**
   * A line plot of one measure per checkpoint id: completed checkpoints joined by a line, failed ones as red
   * points. points: [{id, value, status, at}]; format: how values read.
   */
  function lineChart(id, title, points, format) {
    const width = 560;
    const height = 230;
    const m = { left: 70, right: 18, top: 14, bottom: 40 };
    const plotW = width - m.left - m.right;
    const plotH = height - m.top - m.bottom;
    const root = svg('svg', { id, class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img',
      'aria-label': title, 'data-points': points.length });
    const legend = html('span', { class: 'legend' }, html('span', { class: 'key completed' }, 'completed'),
      points.some((p) => p.status === 'FAILED') ? html('span', { class: 'key failed' }, 'failed') : null);
    const figure = html('figure', { class: 'plot' }, html('figcaption', {}, title, legend), root);
    if (points.length === 0) {
      root.append(svg('text', { x: width / 2, y: height / 2, class: 'empty', 'text-anchor': 'middle' },
        'no ended checkpoint yet'));
      return figure;
    }
    const ids = points.map((p) => p.id);
    const minId = Math.min(...ids);
    const maxId = Math.max(...ids);
    const scaleY = axisScale(Math.max(...points.map((p) => p.value)), 4, format);
    const x = (cid) => m.left + (maxId === minId ? plotW / 2 : ((cid - minId) / (maxId - minId)) * plotW);
    const y = (v) => m.top + plotH - (v / scaleY.max) * plotH;
    for (let v = 0; v <= scaleY.max + scaleY.step / 2; v += scaleY.step) {
      root.append(svg('line', { x1: m.left, x2: width - m.right, y1: y(v), y2: y(v), class: 'grid' }));
      root.append(svg('text', { x: m.left - 8, y: y(v) + 4, class: 'tick', 'text-anchor': 'end' }, tick(format(v))));
    }
    const idStep = Math.max(1, Math.ceil((maxId - minId + 1) / 8));
    for (let cid = minId; cid <= maxId; cid += idStep) {
      root.append(svg('text', { x: x(cid), y: height - m.bottom + 16, class: 'tick', 'text-anchor': 'middle' },
        String(cid)));
    }
    root.append(svg('text', { x: m.left + plotW / 2, y: height - 6, class: 'axis-label', 'text-anchor': 'middle' },
      'checkpoint id'));
    root.append(svg('line', { x1: m.left, x2: m.left, y1: m.top, y2: m.top + plotH, class: 'axis' }));
    root.append(svg('line', { x1: m.left, x2: width - m.right, y1: m.top + plotH, y2: m.top + plotH,
      class: 'axis' }));
    const completed = points.filter((p) => p.status === 'COMPLETED');
    if (completed.length > 1) {
      root.append(svg('polyline', { class: 'series', points: completed.map((p) => `${x(p.id)},${y(p.value)}`)
        .join(' ') }));
    }
    points.forEach((p) => {
      root.append(svg('circle', { cx: x(p.id), cy: y(p.value), r: 4, class: 'point ' + p.status.toLowerCase(),
        'data-checkpoint-id': p.id, 'data-value': p.value },
      svg('title', {}, `checkpoint ${p.id} (${p.status.toLowerCase()}) at ${clock(p.at)}: ${format(p.value)}`)));
    });
    return figure;
  }

  /** Counts by outcome: tiles, and one stacked bar of completed, failed and in progress. */
  function countsBar(counts) {
    const parts = [['completed', counts.completed], ['failed', counts.failed], ['in-progress', counts.in_progress]];
    const total = parts.reduce((sum, [, n]) => sum + n, 0);
    const bar = svg('svg', { id: 'counts-bar', class: 'counts-bar', viewBox: '0 0 400 14', preserveAspectRatio: 'none',
      role: 'img', 'aria-label': 'checkpoints by outcome' });
    let at = 0;
    parts.forEach(([name, n]) => {
      if (n > 0) {
        const w = (n / total) * 400;
        bar.append(svg('rect', { x: at, y: 0, width: w, height: 14, class: 'count ' + name },
          svg('title', {}, `${n} ${name.replace('-', ' ')}`)));
        at += w;
      }
    });
    if (total === 0) {
      bar.append(svg('rect', { x: 0, y: 0, width: 400, height: 14, class: 'count none' }));
    }
    const tile = (name, label, n) => html('div', { class: 'tile ' + name, 'data-count': name,
      title: name === 'failed' ? 'as Flink counts them: also triggers that failed before a checkpoint started' : null },
      html('span', { class: 'value' }, String(n)), html('span', { class: 'label' }, label));
    return html('div', { id: 'counts', class: 'counts' },
      html('div', { class: 'tiles' }, tile('triggered', 'triggered', counts.triggered),
        tile('completed', 'completed', counts.completed), tile('failed', 'failed', counts.failed),
        tile('in-progress', 'in progress', counts.in_progress)),
      bar);
  }

  /**
   * Flink's straggler view: one row per subtask, its ack's offset from the trigger as a bar; the subtasks that
   * have not acknowledged (detail.missing_subtasks) are highlighted with a bar running to now.
   */
  function ackTimeline(detail, nowMs) {
    const trigger = detail.trigger_timestamp;
    const rows = [];
    const missingByTask = new Map();
    detail.missing_subtasks.forEach((s) => {
      if (!missingByTask.has(s.task_id)) {
        missingByTask.set(s.task_id, []);
      }
      missingByTask.get(s.task_id).push(s);
    });
    detail.tasks.forEach((task) => {
      const missing = missingByTask.get(task.task_id) || [];
      missingByTask.delete(task.task_id);
      const entries = task.subtasks.map((s) => ({ task: task.task_id, index: s.index, acked: true,
        offset: Math.max(0, s.ack_timestamp - trigger), size: s.state_size }))
        .concat(missing.map((s) => ({ task: task.task_id, index: s.index, acked: false, attempt: s.attempt_id,
          host: s.host })));
      entries.sort((a, b) => a.index - b.index);
      rows.push(...entries);
    });
    missingByTask.forEach((missing, taskId) => missing.forEach((s) => rows.push({ task: taskId, index: s.index,
      acked: false, attempt: s.attempt_id, host: s.host })));
    const pending = detail.status === 'IN_PROGRESS';
    const waited = pending ? Math.max(0, nowMs - trigger) : (detail.end_to_end_duration || 0);
    const span = axisScale(Math.max(waited, ...rows.filter((r) => r.acked).map((r) => r.offset), 1), 5, duration);
    const shown = rows.slice(0, 300);
    const width = 900;
    const rowH = 20;
    const m = { left: 190, right: 180, top: 26, bottom: 26 };
    const plotW = width - m.left - m.right;
    const height = m.top + shown.length * rowH + m.bottom;
    const x = (ms) => m.left + (Math.min(ms, span.max) / span.max) * plotW;
    const root = svg('svg', { id: 'timeline', class: 'timeline', viewBox: `0 0 ${width} ${height}`, role: 'img',
      'aria-label': 'subtask acknowledgements after the trigger', 'data-rows': shown.length });
    for (let t = 0; t <= span.max + span.step / 2; t += span.step) {
      root.append(svg('line', { x1: x(t), x2: x(t), y1: m.top - 6, y2: height - m.bottom, class: 'grid' }));
      root.append(svg('text', { x: x(t), y: m.top - 10, class: 'tick', 'text-anchor': 'middle' },
        '+' + tick(duration(t))));
    }
    shown.forEach((r, i) => {
      const top = m.top + i * rowH;
      const key = `${r.task}#${r.index}`;
      const row = svg('g', { class: 'subtask-row ' + (r.acked ? 'acked' : 'missing'), 'data-subtask': key,
        'data-acked': r.acked });
      if (i % 2 === 1) {
        row.append(svg('rect', { x: 0, y: top, width, height: rowH, class: 'stripe' }));
      }
      row.append(svg('text', { x: m.left - 10, y: top + 14, class: 'row-label', 'text-anchor': 'end' },
        `${r.task} #${r.index}`));
      if (r.acked) {
        row.append(svg('rect', { x: m.left, y: top + 5, width: Math.max(1, x(r.offset) - m.left), height: rowH - 10,
          rx: 2, class: 'ack-bar' },
        svg('title', {}, `${key} acknowledged after ${duration(r.offset)}, ${bytes(r.size)}`)));
        row.append(svg('circle', { cx: x(r.offset), cy: top + rowH / 2, r: 4, class: 'ack-point' }));
        row.append(svg('text', { x: width - m.right + 10, y: top + 14, class: 'row-note' },
          `+${duration(r.offset)} · ${bytes(r.size)}`));
      } else {
        row.append(svg('rect', { x: m.left, y: top + 4, width: Math.max(1, x(waited) - m.left), height: rowH - 8,
          rx: 2, class: 'missing-bar' },
        svg('title', {}, `${key}${r.host ? ' on ' + r.host : ''} has not acknowledged`)));
        row.append(svg('text', { x: width - m.right + 10, y: top + 14, class: 'row-note missing-note' },
          pending ? `not acked · ${duration(waited)}` : 'never acked'));
      }
      root.append(row);
    });
    const nowLine = pending ? [svg('line', { x1: x(waited), x2: x(waited), y1: m.top - 4, y2: height - m.bottom,
      class: 'now-line' }), svg('text', { x: x(waited), y: height - 8, class: 'tick now-label',
      'text-anchor': 'middle' }, 'now')] : [];
    root.append(...nowLine);
    const figure = html('figure', { class: 'plot wide' }, root);
    if (rows.length > shown.length) {
      figure.append(html('figcaption', {}, `${rows.length - shown.length} more subtasks not drawn`));
    }
    return figure;
  }

  window.CairnCharts = { svg, html, duration, bytes, clock, lineChart, countsBar, ackTimeline };
}());
