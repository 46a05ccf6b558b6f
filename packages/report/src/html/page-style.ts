/** The page's stylesheet: readable on screen and in print, no web fonts (they would need the network). */
export const PAGE_STYLE = `
:root { --ink: #1f2937; --muted: #6b7280; --line: #e5e7eb; --bg: #f8fafc; --card: #ffffff;
  --add: #e6ffec; --add-ink: #116329; --del: #ffebe9; --del-ink: #82071e; --warn: #fff8e1; --warn-line: #f5c451; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
  color: var(--ink); background: var(--bg); }
main { max-width: 1180px; margin: 0 auto; padding: 24px 20px 64px; }
header h1 { font-size: 22px; margin: 0 0 4px; }
header p { margin: 0; color: var(--muted); }
h2 { font-size: 18px; margin: 32px 0 12px; padding-bottom: 6px; border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 20px 0 8px; }
section.card > h2:first-child { margin-top: 0; }
section.card, .notes { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 16px 18px; margin: 16px 0; }
.notes { background: var(--warn); border-color: var(--warn-line); }
.notes h2 { border: 0; margin: 0 0 6px; padding: 0; font-size: 15px; }
.notes ul { margin: 0; padding-left: 20px; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600;
  background: #e0e7ff; color: #3730a3; margin-left: 6px; vertical-align: middle; }
.badge.completed { background: #dcfce7; color: #166534; }
.badge.failed, .badge.cancelled { background: #fee2e2; color: #991b1b; }
.badge.in-progress, .badge.not-started { background: #fef9c3; color: #854d0e; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 5px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .03em; }
td.num, th.num { text-align: right; }
table.generations { width: auto; min-width: 50%; }
table.kv th { width: 220px; text-transform: none; font-size: 14px; letter-spacing: 0; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(340px, 100%), 1fr)); gap: 14px; }
/* min-width 0 and an absolutely placed canvas: a chart's own size must never widen its grid track. */
.chart { margin: 0; min-width: 0; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px 12px; }
.chart.wide { grid-column: 1 / -1; }
.chart h3 { margin: 0 0 6px; font-size: 13px; }
.chart .plot { position: relative; width: 100%; height: 230px; }
.chart .plot canvas { position: absolute; inset: 0; }
.chart.wide .plot { height: 320px; }
.chart-error { color: #991b1b; font-weight: 600; }
details.task { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin: 10px 0; }
details.task > summary { cursor: pointer; font-weight: 600; }
details.task > summary .meta { font-weight: 400; color: var(--muted); margin-left: 8px; }
details.text > summary { cursor: pointer; color: var(--muted); margin: 6px 0; }
pre { margin: 6px 0 12px; padding: 10px 12px; background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px;
  overflow-x: auto; font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap; word-break: break-word; }
pre.diff { padding: 6px 0; }
pre.diff span { display: block; padding: 0 12px; }
pre.diff .d-add { background: var(--add); color: var(--add-ink); }
pre.diff .d-del { background: var(--del); color: var(--del-ink); }
pre.diff .d-hunk { color: var(--muted); background: #eef2f7; }
.change-head { font-size: 13px; margin: 12px 0 2px; }
.change-head .plus { color: var(--add-ink); font-weight: 600; }
.change-head .minus { color: var(--del-ink); font-weight: 600; }
.muted { color: var(--muted); }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
@media print { .chart, details.task, section.card { break-inside: avoid; } }
`;
