/**
 * The report's stylesheet. Colours are the Okabe-Ito palette (safe for the common colour-vision
 * deficiencies), and every coloured thing also carries a word, an icon or a pattern.
 */
export const STYLES = `
:root{--blue:#0072B2;--verm:#D55E00;--orange:#E69F00;--sky:#56B4E9;--green:#009E73;--yellow:#F0E442;--purple:#CC79A7;
--ink:#1c2430;--muted:#5b6675;--line:#d9dee5;--bg:#f6f7f9;--card:#fff;
--blue-bg:#e4f0f8;--verm-bg:#fbe7dc;--orange-bg:#fdf1d6;--purple-bg:#f7e9f1;--grey-bg:#eef0f3;--green-bg:#e0f3ed}
*{box-sizing:border-box}
html{font-size:15px}
body{margin:0;background:var(--bg);color:var(--ink);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",sans-serif}
main{max-width:1240px;margin:0 auto;padding:24px 28px 64px}
h1{font-size:1.9rem;margin:.1rem 0 .6rem;letter-spacing:-.01em;word-break:break-word}
h2{font-size:1.3rem;margin:2.2rem 0 .8rem;padding-bottom:.3rem;border-bottom:2px solid var(--line)}
h3{font-size:1.05rem;margin:1.4rem 0 .5rem}
h4{font-size:.8rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:0 0 .5rem}
h5{font-size:.9rem;margin:.8rem 0 .3rem}
a{color:#005a8c}
code,.mono,pre{font-family:ui-monospace,"SFMono-Regular","DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:.86rem}
.muted,.sub{color:var(--muted)}
.sub{font-size:.85rem}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.ok{color:#00603f;font-weight:600}
.bad{color:#a33b00;font-weight:700}
.eyebrow{margin:0;color:var(--muted);font-size:.8rem;text-transform:uppercase;letter-spacing:.08em}
.verdict{display:flex;gap:14px;align-items:baseline;flex-wrap:wrap;margin:0 0 1rem;padding:14px 18px;border-radius:8px;border-left:10px solid;background:var(--card);box-shadow:0 1px 2px #0001;font-size:1.08rem}
.verdict-label{font-size:1.6rem;font-weight:800;letter-spacing:.02em;white-space:nowrap}
.verdict-pass{border-color:var(--blue);background:var(--blue-bg)}.verdict-pass .verdict-label{color:#004f7c}
.verdict-fail{border-color:var(--verm);background:var(--verm-bg)}.verdict-fail .verdict-label{color:#9a3800}
.verdict-rig-error{border-color:var(--purple);background:var(--purple-bg)}.verdict-rig-error .verdict-label{color:#7a3560}
.verdict-running{border-color:#8a96a3;background:var(--grey-bg)}
.alarms{display:grid;gap:10px;margin-bottom:1rem}
.alarm{padding:12px 16px;border-radius:8px;border:2px solid var(--verm);background:var(--verm-bg)}
.alarm p{margin:.2rem 0}
.alarm-title{font-weight:800;font-size:1.1rem}
.alarm-icon{color:#9a3800}
.alarm-server-failure{border-color:var(--orange);background:var(--orange-bg)}
.alarm-blind,.alarm-vacuous{border-color:var(--orange);background:repeating-linear-gradient(135deg,var(--orange-bg) 0 14px,#fff8e6 14px 28px)}
.alarm-cycles a{font-family:ui-monospace,monospace;font-size:.85rem;margin-right:4px}
.stats{display:flex;flex-wrap:wrap;gap:10px;list-style:none;padding:0;margin:0 0 .5rem}
.stats li{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:8px 14px;min-width:120px}
.stats b{display:block;font-size:1.35rem;font-variant-numeric:tabular-nums}
.stats span{color:var(--muted);font-size:.8rem}
nav.toc{font-size:.9rem;margin:.4rem 0 0}
nav.toc a{margin-right:14px}
table{border-collapse:collapse;width:100%;background:var(--card)}
th,td{padding:7px 10px;border-bottom:1px solid var(--line);vertical-align:top;text-align:left}
thead th{font-size:.8rem;color:var(--muted);font-weight:600;background:#fafbfc}
table.scenarios .name{font-size:1rem}
tr.st-fail td:first-child,tr.st-blind td:first-child,tr.st-vacuous td:first-child{box-shadow:inset 4px 0 0 var(--verm)}
.status{display:inline-block;padding:2px 8px;border-radius:4px;font-weight:700;font-size:.85rem;white-space:nowrap;border:1px solid}
.status-pass{background:var(--blue-bg);border-color:var(--blue);color:#004f7c}
.status-fail{background:var(--verm-bg);border-color:var(--verm);color:#9a3800}
.status-blind,.status-vacuous{background:repeating-linear-gradient(135deg,var(--orange-bg) 0 6px,#fff 6px 12px);border-color:var(--orange);color:#7a5200}
.status-rig-error{background:var(--purple-bg);border-color:var(--purple);color:#7a3560}
.status-not-run{background:var(--grey-bg);border-color:#aab3bd;color:var(--muted)}
.failures{margin:.3rem 0 0;padding-left:1.1rem;color:#9a3800;font-size:.88rem}
.finding{margin:.3rem 0 0;color:#7a5b00;font-size:.88rem}
.straddle-bad{color:#9a3800;font-weight:600}
.chip{display:inline-block;margin:1px 4px 1px 0;padding:1px 8px;border-radius:999px;font-size:.8rem;border:1px solid;white-space:nowrap}
.v-no-torn{background:var(--grey-bg);border-color:#8a96a3}
.v-restored{background:var(--blue-bg);border-color:var(--blue)}
.v-detected{background:var(--purple-bg);border-color:var(--purple)}
.v-refused{background:var(--grey-bg);border-color:var(--purple)}
.v-silent-corruption,.v-lost-commit{background:var(--verm);border-color:var(--verm);color:#fff;font-weight:700}
.v-reported-corruption{background:var(--verm-bg);border-color:var(--verm);color:#9a3800;font-weight:700}
.v-crashed,.v-hung,.v-shutdown-crash{background:var(--orange-bg);border-color:var(--orange);color:#7a5200;font-weight:700}
.v-rig-error{background:#fff;border-style:dashed;border-color:#7a3560;color:#7a3560}
table.matrix{table-layout:fixed}
/* fixed widths: "Show more" lays out its new rows, not every row shown */
table.cycle-list{table-layout:fixed}table.cycle-list td{overflow-wrap:break-word}
table.cycle-list th:nth-child(1),table.cycle-list th:nth-child(2){width:24%}
table.cycle-list th:nth-child(3){width:30%}table.cycle-list th:nth-child(4){width:8%}
ul.history-changes li.new{font-weight:600}
ul.history-changes li.still{color:var(--muted)}
table.matrix th{text-align:center}
table.matrix th.row-head,table.matrix th.corner{text-align:left;width:170px}
th.dw-group{font-size:.85rem;color:var(--ink);border-bottom:2px solid var(--ink)}
td.cell{border:2px solid #fff;border-radius:6px}
.cell-pass{background:var(--blue-bg)}
.cell-fail{background:var(--verm-bg)}
.cell-blind,.cell-vacuous{background:repeating-linear-gradient(135deg,var(--orange-bg) 0 8px,#fff 8px 16px)}
.cell-rig-error{background:var(--purple-bg)}
.cell-not-run,.cell-empty{background:#f3f4f6;text-align:center;font-size:.85rem}
.cell-scenario+.cell-scenario{margin-top:6px;padding-top:6px;border-top:1px dashed #0002}
.cell-status{font-weight:800}
.cell-fail .cell-status{color:#9a3800}.cell-pass .cell-status{color:#004f7c}.cell-blind .cell-status,.cell-vacuous .cell-status{color:#7a5200}
.cell-detail{font-size:.8rem;color:var(--muted)}
.legend{font-size:.85rem;color:var(--muted);margin:.5rem 0}
.legend .status{margin-right:6px}
dl.env{display:grid;grid-template-columns:max-content 1fr;gap:4px 18px;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin:0}
dl.env dt{color:var(--muted)}dl.env dd{margin:0;word-break:break-word}
code.cmd{white-space:pre-wrap;word-break:break-all}
.toolbar{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin:.4rem 0 .8rem}
button{font:inherit;font-size:.85rem;padding:4px 12px;border:1px solid #9aa5b1;border-radius:6px;background:#fff;cursor:pointer}
button:hover{background:var(--grey-bg)}
button[aria-pressed=true]{background:var(--ink);color:#fff;border-color:var(--ink)}
body.only-failing details.cycle-held{display:none}
details.cycle{background:var(--card);border:1px solid var(--line);border-radius:8px;margin:6px 0}
details.cycle-failed{border-left:6px solid var(--verm)}
details.cycle-held{border-left:6px solid var(--blue)}
details.cycle-rig{border-left:6px dashed var(--purple)}
details.cycle:target{outline:3px solid var(--orange)}
details.cycle>summary{cursor:pointer;padding:8px 12px;display:flex;gap:10px;align-items:center;list-style:none}
details.cycle>summary::-webkit-details-marker{display:none}
details.cycle>summary::before{content:"▸";color:var(--muted);width:1em}
details.cycle[open]>summary::before{content:"▾"}
.held-icon{font-weight:800;width:1.2em;text-align:center}
.held-yes{color:#004f7c}.held-no{color:#9a3800}.held-rig{color:#7a3560}
.held{font-weight:700;font-size:.9rem;margin-left:6px}
.cycle-id{font-family:ui-monospace,monospace;font-weight:700;white-space:nowrap}
.torn-count{font-size:.8rem;color:var(--muted);white-space:nowrap;min-width:4.5em}
.reason{color:var(--muted);font-size:.88rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;flex:1;min-width:0}
.cycle-body{padding:4px 16px 16px;border-top:1px solid var(--line)}
.reason-full{font-size:1rem;margin:.3rem 0}
.permalink{margin-left:8px;text-decoration:none;color:var(--muted)}
.parts{display:grid;grid-template-columns:repeat(auto-fit,minmax(440px,1fr));gap:12px}
.part{border:1px solid var(--line);border-radius:6px;padding:10px 12px;min-width:0}
.part.wide{grid-column:1/-1}
.part p{margin:.3rem 0}
.cause{background:var(--verm-bg);border-left:4px solid var(--verm);padding:6px 10px;border-radius:4px}
dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:.3rem 0;font-size:.9rem}
dl.kv dt{color:var(--muted)}dl.kv dd{margin:0;min-width:0;word-break:break-word}
.hash{font-size:.75rem}
.size{white-space:nowrap;margin-right:6px}
table.compact{font-size:.85rem}
table.compact th,table.compact td{padding:3px 8px}
.tag{display:inline-block;padding:0 6px;border-radius:4px;font-size:.78rem;border:1px solid #0003;white-space:nowrap}
.f-torn{background:var(--verm-bg);border-color:var(--verm)}
.f-dropped{background:var(--grey-bg)}
.f-landed{background:var(--blue-bg);border-color:var(--blue)}
.a-doublewrite{background:var(--blue-bg);border-color:var(--blue)}
.a-redo{background:var(--green-bg);border-color:var(--green)}
.a-unexplained{background:var(--verm-bg);border-color:var(--verm)}
.unit-map{display:inline-flex;gap:2px;vertical-align:middle}
.unit-map i{font-style:normal;display:inline-block;width:22px;height:20px;line-height:18px;text-align:center;font-size:.72rem;font-weight:700;border:1px solid;border-radius:3px}
.unit-map.dense i{width:9px;height:16px;font-size:0;line-height:0}
.unit-map .n{background:var(--blue);border-color:var(--blue);color:#fff}
.unit-map .o{background:repeating-linear-gradient(135deg,#fff 0 3px,#e7c48a 3px 5px);border-color:#a07020;color:#5a3d00}
.log{overflow-x:auto;border:1px solid var(--line);border-radius:4px;background:#fbfbfc}
table.log-lines{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.78rem;background:none}
table.log-lines td{padding:1px 8px;border:0;white-space:pre-wrap;word-break:break-word}
table.log-lines td:first-child{color:var(--muted);text-align:right;user-select:none;width:4em;border-right:1px solid var(--line)}
tr.gap td{color:var(--muted);font-style:italic;background:#f1f2f4}
table.log-lines tr[class^=k-] td+td{font-weight:600}
table.log-lines b.tag{font-weight:700}
.k-corruption,.k-abort{background:var(--verm-bg)}
.k-lsn-in-future,.k-error{background:var(--orange-bg)}
.k-doublewrite-restore{background:var(--blue-bg)}
.k-recovery-start,.k-recovery-done,.k-ready{background:var(--green-bg)}
.tag.k-corruption,.tag.k-abort{border-color:var(--verm)}
.tag.k-doublewrite-restore{border-color:var(--blue)}
.tag.k-lsn-in-future,.tag.k-error{border-color:var(--orange)}
.gt-torn{background:var(--verm-bg);border-color:var(--verm);font-weight:600}
.gt-intact{background:#fff;border-style:dashed;border-color:#5b6675;color:#3d4652}
.tag.k-recovery-start,.tag.k-recovery-done,.tag.k-ready{border-color:var(--green)}
svg.chart{width:100%;max-width:760px;height:auto;display:block}
svg.chart .grid{stroke:#e3e6ea;stroke-width:1}
svg.chart .tick,svg.chart .axis{font-size:11px;fill:var(--muted)}
svg.chart .series{fill:none;stroke:var(--blue);stroke-width:2}
svg.chart .cut line{stroke:var(--verm);stroke-width:2;stroke-dasharray:5 3}
svg.chart .cut text{font-size:12px;font-weight:700;fill:#9a3800;paint-order:stroke;stroke:#fff;stroke-width:4px;stroke-linejoin:round}
.phase-bar{width:100%;height:18px;display:block;border-radius:3px}
.phase-legend{list-style:none;padding:0;margin:.4rem 0 0;display:flex;flex-wrap:wrap;gap:4px 16px;font-size:.85rem}
.swatch{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:5px;vertical-align:-1px}
.ph-prepare{fill:#999;background:#999}.ph-load{fill:var(--blue);background:var(--blue)}.ph-cut{fill:var(--verm);background:var(--verm)}
.ph-materialize{fill:var(--orange);background:var(--orange)}.ph-scanBefore{fill:var(--sky);background:var(--sky)}
.ph-recover{fill:var(--green);background:var(--green)}.ph-scanAfter{fill:var(--purple);background:var(--purple)}.ph-judge{fill:#333;background:#333}
.repro{display:flex;gap:8px;align-items:flex-start}
pre.cmd{flex:1;margin:0;padding:8px 10px;background:#1c2430;color:#f2f4f7;border-radius:6px;white-space:pre-wrap;word-break:break-all}
footer{margin-top:3rem;color:var(--muted);font-size:.8rem}
@media (max-width:700px){main{padding:12px}.parts{grid-template-columns:1fr}.reason{display:none}
table:not(.log-lines){display:block;overflow-x:auto}
table.matrix{table-layout:auto}
table.matrix th.row-head,table.matrix th.corner{width:auto}
svg.chart .tick,svg.chart .axis,svg.chart .cut text{font-size:20px}}
@media print{
 html{font-size:11px}body{background:#fff}main{max-width:none;padding:0}
 .toolbar,button.copy,nav.toc{display:none}
 details.cycle{break-inside:avoid-page}
 .log{max-height:none;overflow:visible}
 .verdict,.alarm,.stats li{box-shadow:none}
 *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}
`;
