// One stylesheet for the badge (inside its shadow root) and the extension pages, so a verdict
// looks the same everywhere. Plain CSS text: the badge cannot load files into a page.
export const styles = `
:host { all: initial; }
.presend { font: 13px/1.4 system-ui, sans-serif; color: #111; background: #fff; border: 1px solid #ccd;
  border-radius: 8px; box-shadow: 0 4px 16px rgba(0,0,0,.18); padding: 8px 10px; max-width: 360px;
  box-sizing: border-box; }
.presend * { box-sizing: border-box; }
.row { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin: 4px 0; }
.brand { font-weight: 600; }
.mono { font-family: ui-monospace, monospace; font-size: 12px; word-break: break-all; }
.chip { border-radius: 10px; padding: 1px 8px; font-weight: 600; font-size: 12px; }
.level-ok { background: #d9f5df; color: #14532d; }
.level-caution { background: #fff3c4; color: #713f12; }
.level-warn { background: #ffdfb8; color: #7c2d12; }
.level-danger { background: #ffd4d4; color: #7f1d1d; }
.alert { border-radius: 6px; padding: 6px 8px; margin: 6px 0; }
button { font: inherit; border: 1px solid #99a; border-radius: 6px; background: #f4f4f8; padding: 3px 8px;
  cursor: pointer; }
button.primary { background: #1d4ed8; border-color: #1d4ed8; color: #fff; }
button:disabled { opacity: .5; cursor: not-allowed; }
select, input { font: inherit; padding: 2px 4px; }
.close { margin-left: auto; border: none; background: none; font-size: 15px; padding: 0 4px; }
.muted { color: #556; font-size: 12px; }
ul.reasons { margin: 4px 0; padding-left: 18px; }
table { border-collapse: collapse; font-size: 12px; width: 100%; }
td, th { border-bottom: 1px solid #eef; padding: 2px 4px; text-align: left; }
`;
