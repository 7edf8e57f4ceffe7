"""Board pictures (SVG) and projector pages (HTML) for a simultaneous event.

* :func:`board_svg` — the 15×15 board with premium squares, coordinates,
  tiles with their values, blanks as dashed tiles (as the German rule leaflet
  draws them) and the newly placed tiles of the top move highlighted;
  optionally a caption and the rack underneath (the per-round picture).
* :func:`round_page` — one HTML page to project: the board as large as the
  screen allows, the round number, the rack, the clock, the top move and a
  closed round's scores per player (at most :data:`MAX_SCORE_ROWS` rows).
  Labels are German (the players read them). A script fits the page to the
  screen: no scrolling, letters as large as there is room for (see
  :data:`ROWS_VH`, :data:`MIN_SCALE`); the live page also reports, in a large
  banner, when the server cannot read the event or does not answer.
* :func:`index_page` — every round and the standings, linking the round pages.

Pages are self-contained (inline SVG and CSS, no network); sizes are in
viewport units so they fill any projector.
"""

from __future__ import annotations

import html
import json

from lexicon_tools.alphabet import Alphabet

from engine.position.board import COLUMNS, N, Board

__all__ = ["board_svg", "rack_html", "notation_html", "round_page", "index_page", "de_number", "de_percent"]

CELL = 40
MARGIN = 30
PAD = 8
SIZE = MARGIN + N * CELL + PAD

_SQUARES = {  # (letter_mult, word_mult) -> (fill, label, label colour)
    (1, 3): ("#c8323c", "3W", "#ffffff"),
    (1, 2): ("#f6a8a8", "2W", "#5a1a1a"),
    (3, 1): ("#2f6db5", "3B", "#ffffff"),
    (2, 1): ("#a9d3f2", "2B", "#12385e"),
    (1, 1): ("#e9e4d4", "", ""),
}
TILE = "#f5dc9a"
TILE_EDGE = "#a88a3c"
NEW_TILE = "#ffc22e"
NEW_EDGE = "#c0392b"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def de_number(value, decimals: int = 0) -> str:
    """A number as German text: comma before the decimals, a dot between thousands.

    ``de_number(1234.5, 2) == "1.234,50"``, ``de_number(-7) == "\u22127"`` (a negative
    number with the real minus sign U+2212, as the pages write deductions); ``decimals`` is
    the number of digits after the comma (0: rounded to a whole number).
    """
    text = f"{float(value) if decimals else round(value):,.{decimals}f}"
    return text.replace(",", "\x00").replace(".", ",").replace("\x00", ".").replace("-", "\u2212")


def de_percent(value) -> str:
    """A percentage as German text with two decimals and a non-breaking space: ``"100,00\u00a0%"``."""
    return f"{de_number(value, 2)}\u00a0%"


def _esc(text) -> str:
    return html.escape(str(text), quote=True)


def _tile_svg(x: float, y: float, size: float, letter: str, value: int | None, blank: bool, new: bool) -> str:
    inset = size * 0.05
    w = size - 2 * inset
    fill = NEW_TILE if new else ("#fffdf6" if blank else TILE)
    edge = NEW_EDGE if new else ("#7b7b7b" if blank else TILE_EDGE)
    dash = ' stroke-dasharray="4 3"' if blank else ""
    sw = 2.6 if new else (1.6 if blank else 1.2)
    out = [f'<rect x="{x + inset:.1f}" y="{y + inset:.1f}" width="{w:.1f}" height="{w:.1f}" rx="{size * 0.12:.1f}" '
           f'fill="{fill}" stroke="{edge}" stroke-width="{sw}"{dash}/>']
    colour = "#6b6b6b" if blank else "#1b1b1b"
    out.append(f'<text x="{x + size * 0.46:.1f}" y="{y + size * 0.70:.1f}" font-size="{size * 0.58:.1f}" '
               f'font-weight="bold" text-anchor="middle" fill="{colour}">{_esc(letter)}</text>')
    if value is not None and not blank:
        out.append(f'<text x="{x + size * 0.86:.1f}" y="{y + size * 0.88:.1f}" font-size="{size * 0.24:.1f}" '
                   f'text-anchor="end" fill="#1b1b1b">{value}</text>')
    return "".join(out)


def _caption_tspans(caption) -> str:
    """Caption text: a string, or a list of strings and ``("move", notation)`` parts whose
    blanks (lowercase letters) are drawn as grey underlined capitals."""
    if isinstance(caption, str):
        return _esc(caption)
    out = []
    for part in caption:
        if isinstance(part, tuple):
            for ch in part[1]:
                if ch.islower():
                    out.append(f'<tspan fill="#8a8a8a" text-decoration="underline">{_esc(ch.upper())}</tspan>')
                else:
                    out.append(_esc(ch))
        else:
            out.append(_esc(part))
    return "".join(out)


def board_svg(board: Board, new_tiles=(), caption: str | None = None, rack: str | None = None,
              standalone: bool = True) -> str:
    """The board as SVG.

    Args:
        board: the position to draw.
        new_tiles: squares ``(row, col)`` (or tiles ``(row, col, ...)``) to highlight as just placed.
        caption: a line of text under the board: a string, or a list of strings and
            ``("move", notation)`` parts (blanks in the move drawn as grey underlined capitals).
        rack: a rack to draw under the board (``?`` = blank).
        standalone: include the XML declaration (a ``.svg`` file) rather than inline use.

    Returns:
        the SVG text.
    """
    a: Alphabet = board.alphabet
    new = {(int(t[0]), int(t[1])) for t in new_tiles}
    extra = 0
    if caption:
        extra += 44
    if rack:
        extra += 64
    width, height = SIZE, SIZE + extra
    out = []
    if standalone:
        out.append('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.append(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
               f'width="{width}" height="{height}" font-family="{FONT}" role="img">')
    out.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>')
    out.append(f'<rect x="{MARGIN - 3}" y="{MARGIN - 3}" width="{N * CELL + 6}" height="{N * CELL + 6}" '
               f'fill="#3d5a45" rx="4"/>')
    for i in range(N):
        cx = MARGIN + i * CELL + CELL / 2
        out.append(f'<text x="{cx:.0f}" y="{MARGIN - 9}" font-size="15" font-weight="bold" text-anchor="middle" '
                   f'fill="#333">{COLUMNS[i]}</text>')
        out.append(f'<text x="{MARGIN - 7}" y="{MARGIN + i * CELL + CELL * 0.64:.0f}" font-size="15" '
                   f'font-weight="bold" text-anchor="end" fill="#333">{i + 1}</text>')
    lm, wm = board.layout.letter_mult, board.layout.word_mult
    for r in range(N):
        for c in range(N):
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            code = int(board.tiles[r, c])
            if code:
                blank = bool(board.blanks[r, c])
                out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}" fill="#e9e4d4"/>')
                out.append(_tile_svg(x, y, CELL, a.letters[code - 1], int(a.values[code]), blank, (r, c) in new))
                continue
            fill, label, colour = _SQUARES.get((int(lm[r, c]), int(wm[r, c])), _SQUARES[(1, 1)])
            out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}" fill="{fill}"/>')
            if (r, c) == (N // 2, N // 2):
                out.append(f'<text x="{x + CELL / 2:.0f}" y="{y + CELL * 0.72:.0f}" font-size="26" '
                           f'text-anchor="middle" fill="#7a1f1f">★</text>')
            elif label:
                out.append(f'<text x="{x + CELL / 2:.0f}" y="{y + CELL * 0.63:.0f}" font-size="13" '
                           f'font-weight="bold" text-anchor="middle" fill="{colour}">{label}</text>')
    y = SIZE
    if caption:
        out.append(f'<text x="{width / 2:.0f}" y="{y + 30}" font-size="24" font-weight="bold" '
                   f'text-anchor="middle" fill="#1b1b1b">{_caption_tspans(caption)}</text>')
        y += 44
    if rack:
        size = 52
        x0 = width / 2 - len(rack) * (size + 6) / 2
        for i, ch in enumerate(rack):
            blank = ch == "?"
            val = None if blank else int(a.values[a.code(ch)])
            out.append(_tile_svg(x0 + i * (size + 6), y + 4, size, "" if blank else ch, val, blank, False))
    out.append("</svg>\n")
    return "".join(out)


def rack_html(rack: str, alphabet: Alphabet) -> str:
    """The rack as big HTML tiles (letters with values; a blank as an empty dashed tile)."""
    out = ['<div class="rack">']
    for ch in rack:
        if ch == "?":
            out.append('<div class="tile blank" title="Joker"><span class="l"></span></div>')
        else:
            out.append(f'<div class="tile"><span class="l">{_esc(ch)}</span>'
                       f'<span class="v">{int(alphabet.values[alphabet.code(ch)])}</span></div>')
    out.append("</div>")
    return "".join(out)


# Every size in the side panel is multiplied by --k, except the score table's, which is multiplied
# by --r: the fitting script (_FIT_JS) sets them so that the panel fits the screen.
_CSS = """
*{box-sizing:border-box}
:root{--b:min(96vh,62vw);--s:calc(100vw - var(--b) - 8vw)}
html,body{margin:0;height:100%;background:#f4f1e8;color:#1b1b1b;font-family:"DejaVu Sans",Verdana,Arial,sans-serif}
.wrap{display:flex;height:100vh;width:100vw;align-items:center;gap:3vw;padding:2vh 2vw}
.board{height:var(--b);width:var(--b);flex:none}
.board svg{width:100%;height:100%;display:block}
.side{--k:1;width:var(--s);max-height:96vh;display:flex;flex-direction:column;justify-content:center;
 gap:calc(var(--k)*min(3.2vh,calc(var(--s)*.05)))}
.event{font-size:calc(var(--k)*min(2.6vh,calc(var(--s)*.045)));color:#555;min-width:0;white-space:nowrap;
 overflow:hidden;text-overflow:ellipsis}
.round{font-size:calc(var(--k)*min(10vh,calc(var(--s)*.18)));font-weight:bold;line-height:1}
.head{display:flex;flex-wrap:wrap;gap:calc(var(--k)*1vh) calc(var(--s)*.08);align-items:center}
/* the round: a dark box, the word "Runde" over its number; the clock: large monospaced digits beside it */
.head .round{display:inline-flex;flex-direction:column;align-items:center;font-weight:normal;background:#3d5a45;
 color:#fff;border-radius:.5em;padding:.45em .8em .35em;white-space:nowrap;text-transform:uppercase;
 letter-spacing:.12em;font-size:calc(var(--k)*min(2.2vh,calc(var(--s)*.036)));line-height:1.1}
.head .round b{font-size:3.6em;line-height:1;letter-spacing:0;font-weight:bold;margin-top:.1em}
.label{font-size:calc(var(--k)*min(2.6vh,calc(var(--s)*.042)));color:#555;text-transform:uppercase;
 letter-spacing:.15em;margin-bottom:calc(var(--k)*.8vh)}
.rack{display:flex;gap:calc(var(--k)*min(1vh,calc(var(--s)*.014)));flex-wrap:nowrap}
.tile{--t:calc(var(--k)*min(9.5vh,calc(var(--s)*.125)));position:relative;width:var(--t);height:var(--t);flex:none;
 background:#f5dc9a;border:calc(var(--t)*.04) solid #a88a3c;border-radius:calc(var(--t)*.13);
 display:flex;align-items:center;justify-content:center;box-shadow:0 .4vh .6vh rgba(0,0,0,.25)}
.tile .l{font-size:calc(var(--t)*.66);font-weight:bold;margin-right:calc(var(--t)*.08)}
.tile .v{position:absolute;right:calc(var(--t)*.08);bottom:calc(var(--t)*.03);font-size:calc(var(--t)*.24)}
.tile.blank{background:#fffdf6;border-style:dashed;border-color:#7b7b7b}
.time{font-size:calc(var(--k)*min(13vh,calc(var(--s)*.22)));font-weight:bold;font-variant-numeric:tabular-nums;
 font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;line-height:1;white-space:nowrap}
.time.low{color:#c0392b}
.time.idle{color:#777}
.clockbox{display:grid}.clockbox>*{grid-area:1/1}.clockbox .ghost{visibility:hidden}
.top{font-weight:bold;line-height:1.15;overflow-wrap:anywhere}
.top .pts{display:block;color:#c0392b}
.top.inline .pts{display:inline}
.top .nw{white-space:nowrap}
.rs{--r:1;border-collapse:collapse;font-size:calc(var(--r)*min(3.6vh,calc(var(--s)*.058)))}
.rs td{padding:.06em .45em .06em 0;white-space:nowrap;line-height:1.15}
.rs td.n{text-align:right;font-variant-numeric:tabular-nums}
/* the page's script shares the width the other columns leave between names and moves */
.rs td.p{max-width:calc(var(--s)*.28);overflow:hidden;text-overflow:ellipsis}
.rs td.m{max-width:calc(var(--s)*.4);overflow:hidden;text-overflow:ellipsis;color:#333}
.rs td.m.bad{color:#8a8a8a;text-decoration:line-through}
.rs td.m.none{color:#8a8a8a}
.rs td.pts{font-weight:bold}
.rs tr.hit td.pts{color:#c0392b}
.rs td.bonus{color:#2f6db5;font-weight:bold}
.rs .ded{color:#b03a2e;font-weight:bold;font-size:.8em;margin-left:.25em}
.rs tr+tr td{border-top:1px solid #d8d2c0}
.rs tr[hidden]{display:none}
.rs th{font-size:.5em;font-weight:normal;color:#555;text-align:left;padding:0 .9em 0 0;white-space:nowrap}
.rs th.n{text-align:right}
.rs td.tot{font-weight:bold}
.rs td.pc{color:#555;font-size:.8em}
.rs.nopc .pc{display:none}
.words{overflow-wrap:anywhere;white-space:normal}
body.timeup{animation:timeup .5s step-end 6}
@keyframes timeup{0%{background:#c0392b}50%{background:#f4f1e8}}
body.timeup .time.low{animation:timeupclock .5s step-end 6}
@keyframes timeupclock{0%{color:#fff}50%{color:#c0392b}}
.rs .bl{border:.1em dashed #7b7b7b;border-radius:.1em;padding:0 .05em}
.side.dense{gap:calc(var(--k)*min(1.6vh,calc(var(--s)*.03)))}
.side.dense .round{font-size:calc(var(--k)*min(7.5vh,calc(var(--s)*.15)))}
.side.dense .time{font-size:calc(var(--k)*min(10vh,calc(var(--s)*.2)))}
.side.dense .head .round{font-size:calc(var(--k)*min(1.8vh,calc(var(--s)*.03)))}
.side.dense .tile{--t:calc(var(--k)*min(8vh,calc(var(--s)*.12)))}
.side.dense .label{margin-bottom:calc(var(--k)*.4vh)}
.top .bl{border:.12em dashed #7b7b7b;border-radius:.12em;padding:0 .06em;color:#555}
.small{font-size:calc(var(--k)*min(2.6vh,calc(var(--s)*.05)));color:#444;line-height:1.35}
.small[hidden]{display:none}
.st{border-collapse:collapse;font-size:calc(var(--k)*min(3vh,calc(var(--s)*.055)))}
.st td{padding:.1em .8vw .1em 0}.st td.n{text-align:right;font-variant-numeric:tabular-nums}
.st th{font-size:.6em;font-weight:normal;color:#555;text-transform:uppercase;letter-spacing:.08em;text-align:left;
 padding:0 .8vw 0 0}.st th.n{text-align:right}
.topline{display:flex;justify-content:space-between;align-items:baseline;gap:2vw}
.label.one{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.nav{font-size:calc(var(--k)*min(2.2vh,calc(var(--s)*.04)));color:#777;flex:none}
.nav a{color:#2f6db5;text-decoration:none;margin-left:1.5vw;display:inline-block}
.alarm{position:fixed;left:6vw;right:6vw;top:50%;transform:translateY(-50%);max-height:90vh;overflow:hidden;
 z-index:10;background:#b03a2e;color:#fff;padding:4vh 4vw;border-radius:1.5vh;box-shadow:0 1vh 4vh rgba(0,0,0,.5);
 font-size:min(3.6vh,2.6vw);line-height:1.3;overflow-wrap:anywhere}
.alarm .a1{font-size:min(7vh,5vw);font-weight:bold;line-height:1.1;margin-bottom:2vh}
.alarm .a3{margin-top:2vh;opacity:.85}
body.stale .wrap{opacity:.3;filter:grayscale(1)}
@media (max-aspect-ratio:1/1){:root{--b:94vw;--s:94vw}.wrap{flex-direction:column;height:auto}
 .side{max-height:none;max-width:100%}.rs{display:block;max-width:100%;overflow-x:auto}}
"""

_CLOCK_JS = """
(function(){
 var el=document.getElementById('clock'); if(!el) return;
 var start=parseFloat(el.dataset.start), len=parseFloat(el.dataset.len), running=null, audio=null;
 window.timeUps=0; window.beeps=0;
 function ctx(){  /* browsers let a page sound only after a click or key press on it */
  var A=window.AudioContext||window.webkitAudioContext; if(!A) return null;
  if(!audio){try{audio=new A();}catch(e){return null;}}
  if(audio.state==='suspended'&&audio.resume) audio.resume();
  return audio;
 }
 addEventListener('click',ctx); addEventListener('keydown',ctx);
 function beep(){
  var a=ctx(); if(!a) return;
  [0,.45,.9].forEach(function(t){
   var o=a.createOscillator(), g=a.createGain(), at=a.currentTime+t;
   o.type='square'; o.frequency.value=880; g.gain.setValueAtTime(.25,at); g.gain.setValueAtTime(0,at+.3);
   o.connect(g); g.connect(a.destination); o.start(at); o.stop(at+.32); window.beeps++;
  });
 }
 function timeUp(){  /* the round time ran out while the page was open: sound and a flashing screen */
  window.timeUps++; beep();
  document.body.classList.remove('timeup'); void document.body.offsetWidth; document.body.classList.add('timeup');
  setTimeout(function(){document.body.classList.remove('timeup');},3200);
 }
 function fmt(s){s=Math.max(0,Math.ceil(s));return Math.floor(s/60)+':'+('0'+(s%60)).slice(-2);}
 function tick(){
  if(window.pollFailed){el.textContent='\u2013:\u2013\u2013';el.className='time idle';return;}
  if(isNaN(start)){el.textContent=fmt(len);el.className='time idle';return;}
  var left=start+len-Date.now()/1000-(window.clockSkew||0);
  if(left<=0){el.textContent='Zeit!';el.className='time low'; if(running) timeUp(); running=false; return;}
  running=true; el.textContent=fmt(left); el.className='time'+(left<=30?' low':''); }
 tick(); setInterval(tick,250);
})();
"""

_FIT_JS = """
(function(){
 var side=document.querySelector('.side'); if(!side) return;
 var rs=side.querySelector('.rs'), more=side.querySelector('.more');
 var rows=rs?[].slice.call(rs.tBodies[0].rows):[], base=more?parseInt(more.dataset.more,10)||0:0;
 function share(){  /* names and moves share the width the other columns leave; moves get 60 %% */
  if(!pc.length) return;
  cells.forEach(function(c){c.style.maxWidth='none';});
  function w(e){return e.getBoundingClientRect().width;}
  var p=w(pc[0]), m=w(mc[0]), room=side.clientWidth-(w(rs)-p-m)-2;  /* 2 px to spare for rounding */
  p=Math.ceil(p)+1; m=Math.ceil(m)+1;
  if(p+m<=room) return;
  var mw=Math.min(m,Math.max(.6*room,room-p)), pw=Math.max(room-mw,0);
  pc.forEach(function(c){c.style.maxWidth=pw+'px';}); mc.forEach(function(c){c.style.maxWidth=mw+'px';});
 }
 function over(){  /* the panel's first and last lines at least 1 %% of the height from the edges */
  share();
  var d=document.documentElement, c=side.children, a=c[0].getBoundingClientRect(),
      b=c[c.length-1].getBoundingClientRect(), m=innerHeight/100;
  return d.scrollHeight>innerHeight||d.scrollWidth>innerWidth||a.top<m-.5||b.bottom>innerHeight-m+.5||
   side.scrollWidth>side.clientWidth+.5||(grow&&cut())||cut(mc);
 }
 function cut(of){  /* a name or move (of them: a move) ends in "…" */
  return (of||cells).some(function(c){return c.offsetWidth&&c.scrollWidth>c.clientWidth+.5;});
 }
 var grow=false, cells=rs?[].slice.call(rs.querySelectorAll('td.p,td.m')):[],
     pc=cells.filter(function(c){return c.className==='p';}),
     mc=cells.filter(function(c){return c.className!=='p';});
 function K(v){side.style.setProperty('--k',v);}
 function R(v){if(rs)rs.style.setProperty('--r',v); grow=v>1;}
 function search(set,lo,hi){
  set(hi); if(!over()) return true;
  set(lo); if(over()) return false;
  for(var i=0;i<7;i++){var m=(lo+hi)/2; set(m); if(over()) hi=m; else lo=m;}
  set(lo); return true;
 }
 function shown(n){
  rows.forEach(function(r,i){r.hidden=i>=n;});
  if(!more) return;
  var m=base+rows.length-n; more.hidden=m<=0;
  more.textContent='\u2026 und '+m+' weitere'+(m===1?'r':'')+' Spieler';
 }
 function fit(){
  /* with the %% column first; when that costs rows or cuts a move (a narrow panel), without it */
  if(rs) rs.classList.remove('nopc');
  fit1();
  function score(){return 2*rows.filter(function(r){return !r.hidden;}).length+(cut(mc)?0:1);}
  if(!rs||!rs.querySelector('td.pc')) return;
  var a=score(); if(a===2*rows.length+1) return;
  rs.classList.add('nopc'); fit1();
  if(score()<=a){rs.classList.remove('nopc'); fit1();}
 }
 function fit1(){
  K(1); R(1); shown(rows.length);
  if(matchMedia('(max-aspect-ratio:1/1)').matches) return;  /* one column: the page scrolls */
  share();
  var px=rs?parseFloat(getComputedStyle(rs).fontSize):0, vh=innerHeight/100;
  /* the score rows: up to %(rows_max)s %% of the screen height where there is room (a narrow panel
     sets them smaller) and no name or move has to be cut for it; else they shrink to %(rows_vh)s %%,
     then everything does */
  var rmin=px?Math.min(1,%(rows_vh)s*vh/px):1, rmax=px&&!cut()?Math.max(1,%(rows_max)s*vh/px):1;
  for(var n=rows.length;;n--){
   K(1); R(1); shown(n);
   if(search(R,rmin,rmax)) return;
   R(rmin);
   if(search(K,%(kmin)s,1)||n<=%(min_rows)s) return;
  }
 }
 fit(); window.fitPage=fit;
 addEventListener('resize',fit);
 if(document.fonts&&document.fonts.ready) document.fonts.ready.then(fit);
})();
"""

_POLL_JS = """
(function(){
 var url=%(url)s, key=%(key)s, every=%(every)d, good=new Date();
 window.clockSkew=%(now)s===null?0:Date.now()/1000-%(now)s;
 window.pollFailed=false;
 var box=null;
 function hhmmss(t){return [t.getHours(),t.getMinutes(),t.getSeconds()].map(function(x){return ('0'+x).slice(-2);})
  .join(':');}
 function alarm(head,why){
  if(!box){box=document.createElement('div');box.id='alarm';box.className='alarm';box.setAttribute('role','alert');
   box.innerHTML='<div class="a1"></div><div class="a2"></div><div class="a3"></div>';document.body.appendChild(box);}
  box.children[0].textContent=head; box.children[1].textContent=why;
  box.children[2].textContent='Neuer Versuch '+(every<900?'laufend':every<1500?'jede Sekunde':
   'alle '+Math.round(every/1000)+' Sekunden')+' \u2026 '+
   '(letzte Antwort '+hhmmss(good)+' Uhr)';
  window.pollFailed=true; document.body.classList.add('stale');
 }
 function calm(){good=new Date(); if(!window.pollFailed) return;
  window.pollFailed=false; document.body.classList.remove('stale'); if(box){box.remove();box=null;}}
 function again(){setTimeout(poll,every);}
 function poll(){
  var ctl=window.AbortController?new AbortController():null;
  var timer=ctl?setTimeout(function(){ctl.abort();},%(timeout)d):0;
  fetch(url,{cache:'no-store',signal:ctl?ctl.signal:undefined}).then(function(r){
   return r.json().then(function(d){return [r,d];},function(){return [r,null];});
  }).then(function(x){
   clearTimeout(timer);
   var r=x[0], d=x[1];
   if(!r.ok||!d||d.view===undefined){
    alarm('Die Partie kann gerade nicht gelesen werden',
          d&&d.error?String(d.error):'Der Server antwortet mit Fehler '+r.status+'.');
    again(); return;
   }
   if(typeof d.now==='number') window.clockSkew=Date.now()/1000-d.now;
   if(d.view!==key){location.reload();return;}
   calm(); again();
  }).catch(function(){
   clearTimeout(timer);
   alarm('Verbindung zum Server verloren','Der Server antwortet nicht (gestoppt oder nicht erreichbar).');
   again();
  });
 }
 again();
})();
"""


ROWS_VH = 2.4
"""Score rows shrink to this font size (% of the screen height) before the rest of the page does."""
MIN_SCALE = 0.7
"""Then everything on the right shrinks, to this fraction at most; if it still does not fit, the
last score rows give way to "… und N weitere Spieler"."""
PAGE_SECONDS = 8.0
"""With more players than the projection's rows, the rows page on every this many seconds."""

_PAGER_JS = """
(function(){
 /* more players than rows: after the fitting script has chosen n rows, show the others page by
    page (n rows each, the first page as fitted) every %(every)d ms; window.scorePage(k) shows page k */
 var src=document.getElementById('more-rows'), tb=document.querySelector('.rs tbody'),
     more=document.querySelector('.more');
 if(!src||!tb||!more) return;
 var extra=JSON.parse(src.textContent), first=[].slice.call(tb.rows), k=0;
 function n(){return Math.max(1,first.filter(function(r){return !r.hidden;}).length);}
 function pages(){return Math.ceil((first.length+extra.length)/n());}
 function show(p){
  var per=n(), all=pages(); k=((p%%all)+all)%%all;
  if(k===0){tb.textContent=''; first.forEach(function(r){tb.appendChild(r);});
   if(window.fitPage) window.fitPage(); return k;}   /* the fitting script sets the rows and the line again */
  var html=first.map(function(r){return r.outerHTML;}).concat(extra).slice(k*per,(k+1)*per);
  tb.innerHTML=html.join('').replace(/<tr([^>]*) hidden=""/g,'<tr$1');
  var to=Math.min((k+1)*per,first.length+extra.length);
  more.textContent='Pl\u00e4tze '+(k*per+1)+'\u2013'+to+' von '+(first.length+extra.length)+' \u00b7 Seite '+(k+1)+
   ' von '+all;
  more.hidden=false; return k;
 }
 window.scorePage=show;
 setInterval(function(){if(window.scorePaging!==false) show(k+1);},%(every)d);  /* false: tests hold page 1 */
 addEventListener('resize',function(){if(k) show(0);});
})();
"""

POLL_TIMEOUT = 10.0
"""Seconds the live page waits for an answer before it reports the server as lost."""


def _page(title: str, body: str, refresh: bool = False, script: str = "", poll: dict | None = None) -> str:
    """The HTML document around ``body``: the clock script, the fitting script, ``script``, and
    either a reload every 5 s (``refresh``) or the polling of ``poll`` (see :func:`round_page`)."""
    reload_js = "setTimeout(function(){location.reload();},5000);" if refresh and poll is None else ""
    poll_js = ""
    if poll is not None:  # before the clock's script: it sets the skew the clock's first tick uses
        every = poll.get("every", 2.0)
        poll_js = _POLL_JS % {"url": json.dumps(poll["url"]), "key": json.dumps(poll["key"]),
                              "every": int(1000 * every), "now": json.dumps(poll.get("now")),
                              "timeout": int(1000 * max(POLL_TIMEOUT, 2 * every))}
    fit_js = _FIT_JS % {"rows_vh": ROWS_VH, "rows_max": 3.6, "kmin": MIN_SCALE, "min_rows": 3}
    fit_js += _PAGER_JS % {"every": int(1000 * PAGE_SECONDS)}
    return ("<!DOCTYPE html>\n<html lang=\"de\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{_esc(title)}</title>\n"
            f"<style>{_CSS}</style>\n</head>\n<body>\n{body}\n"
            f"<script>{poll_js}{_CLOCK_JS}{fit_js}{script}{reload_js}</script>\n"
            "</body>\n</html>\n")


def notation_html(notation: str) -> str:
    """A move's notation for people: blanks (lowercase) as uppercase letters in a dashed box."""
    out = []
    for ch in notation:
        if ch.islower():
            out.append(f'<span class="bl" title="Joker">{_esc(ch.upper())}</span>')
        else:
            out.append(_esc(ch))
    return "".join(out)


def _words_text(score: int, words) -> str:
    """``"HORTE 10 + EH 3 + PO 4 + Bonus 50"``: every word with its points, nothing left out."""
    w = " + ".join(f"{_esc(x)}&nbsp;{de_number(s)}" for x, s in words)
    bonus = score - sum(s for _x, s in words)
    if words and bonus:
        w += f" + Bonus&nbsp;{de_number(bonus)}"
    return w


def _top_html(label: str, notation: str, score: int, words=(), inline: bool = False) -> str:
    """The top move block: label, notation, points (under it, or after it when ``inline``), and
    every word formed with its points on lines of their own that wrap (never cut off)."""
    w = _words_text(score, words)
    extra = f'<div class="small words">{w}</div>' if words else ""
    if any(ch.islower() for ch in notation):
        extra += '<div class="small">gestrichelt: Joker</div>'
    pts = f"{de_number(score)}&nbsp;Punkte"
    if inline:
        # notation and points on one line (the points wrap under the notation when both do not fit)
        factor = min(0.1, 1.0 / (0.8 * max(len(notation), 6)))
        size = f"calc(var(--k)*min(6vh,calc(var(--s)*{factor:.4f})))"
        return (f'<div><div class="label one">{_esc(label)}</div>'
                f'<div class="top inline" style="font-size:{size}"><span class="nw">{notation_html(notation)}</span> '
                f'<span class="pts nw">{pts}</span></div>{extra}</div>')
    # font size: the longest line (the notation) fills at most the panel's width
    factor = min(0.16, 1.0 / (0.8 * max(len(notation), 6)))
    size = f"calc(var(--k)*min(7vh,calc(var(--s)*{factor:.4f})))"
    return (f'<div><div class="label">{_esc(label)}</div>'
            f'<div class="top" style="font-size:{size}">{notation_html(notation)}'
            f'<span class="pts">{pts}</span></div>{extra}</div>')


MAX_SCORE_ROWS = 16
"""Rows of a round's scores on a page to project (the best ones); the page shows fewer
when they do not fit the screen at a readable size."""
MAX_STANDINGS = 10
"""Rows of the standings on the page after the event."""
DENSE_ROWS = 6
"""With more score rows than this, the clock, rack and spacing shrink a little to make room."""


def _scores_html(label: str, rows: list[dict]) -> str:
    """A round's scores per player as a table: rank, player, move, points (and bonus when any);
    rows with ``sum`` and ``percent`` (the running standings) add the total and the % of the top."""
    shown = rows[:MAX_SCORE_ROWS]
    bonus = any(r.get("bonus") for r in shown)
    running = bool(shown) and "sum" in shown[0]
    head = ""
    if running:
        head = ('<thead><tr><th class="n">Pl.</th><th>Spieler</th><th>Zug</th><th class="n">Pkt.</th>'
                + ('<th class="n">Bonus</th>' if bonus else "")
                + '<th class="n">Ges.</th><th class="n pc">% Top</th></tr></thead>')
    out = [f'<div><div class="label">{_esc(label)}</div><table class="rs">{head}<tbody>']
    out.extend(_score_row(r, bonus, running) for r in shown)
    out.append("</tbody></table>")
    # the fitting script hides the last rows when they do not fit, and counts them here
    more = len(rows) - len(shown)
    out.append(f'<div class="small more" data-more="{more}"{"" if more else " hidden"}>'
               f'… und {more} weitere{"r" if more == 1 else ""} Spieler</div>')
    if more:  # the other rows, for the pager (_PAGER_JS): page by page, every PAGE_SECONDS
        data = json.dumps([_score_row(r, bonus, running) for r in rows[len(shown):]], ensure_ascii=False)
        data = data.replace("</", "<\\/")  # no end tag inside the script element
        out.append(f'<script type="application/json" id="more-rows">{data}</script>')
    out.append("</div>")
    return "".join(out)


def _deduction_mark(r: dict) -> str:
    """``−3`` after a round's points when something was deducted (the reasons as a tooltip)."""
    n = int(r.get("deduction") or 0)
    if not n:
        return ""
    text = ("−" if n > 0 else "+") + de_number(abs(n))
    return f'<span class="ded" title="{_esc(r.get("note") or "")}">{text}</span>'


def _score_row(r: dict, bonus: bool, running: bool) -> str:
    """One row of :func:`_scores_html`'s table."""
    out = []
    move = r.get("move") or ""
    if not move:
        cls, text = "m none", "–"
    elif r.get("valid"):
        cls, text = "m", notation_html(move)
    else:
        cls, text = "m bad", notation_html(move)
    title = f' title="{_esc(r["reason"])}"' if r.get("reason") else ""
    tr = '<tr class="hit">' if r.get("top") else "<tr>"
    out.append(f'{tr}<td class="n">{r["rank"]}.</td>'
               f'<td class="p">{_esc(r["player"])}</td><td class="{cls}"{title}>{text}</td>'
               f'<td class="n pts">{de_number(r["score"])}{_deduction_mark(r)}</td>')
    if bonus:
        out.append(f'<td class="n bonus">{"+" + de_number(r["bonus"]) if r.get("bonus") else ""}</td>')
    if running:
        out.append(f'<td class="n tot">{de_number(r["sum"])}</td>'
                   f'<td class="n pc">{de_number(r["percent"], 2)}</td>')
    out.append("</tr>")
    return "".join(out)


def round_page(event_name: str, board: Board, round_no: int, rack: str, *, new_tiles=(), top=None,
               top_label: str = "Top", clock: dict | None = None, bag: int | None = None, note: str = "",
               nav: dict | None = None, refresh: bool = False, standings: list[dict] | None = None,
               round_scores: list[dict] | None = None, scores_label: str = "Ergebnisse",
               poll: dict | None = None, standings_label: str = "Stand") -> str:
    """An HTML page to project: board, round number, rack, clock, top move and the round's scores.

    Args:
        event_name: shown small at the top.
        board: the board to draw.
        round_no: the round shown.
        rack: the round's rack.
        new_tiles: squares to highlight (the top move just placed).
        top: ``(notation, score, words)`` of the top move to show, or ``None``.
        top_label: heading over the top move ("Top" or "Top Runde 6").
        clock: ``{"start": unix time or None, "seconds": round time}`` for a
            countdown (runs in the browser from the start time), or ``None``.
        bag: tiles left in the bag.
        note: a line of small text (e.g. the end of the event).
        nav: links ``{"prev": href, "next": href, "index": href}`` (arrow keys follow them).
        refresh: reload the page every 5 s (the live page as a file).
        standings: ``{"rank", "player", "total", "percent"}`` rows to show (the first
            :data:`MAX_STANDINGS`, then "… und N weitere Spieler"), under ``standings_label``.
        round_scores: a closed round's result per player, best first
            (:func:`engine.director.export.round_score_rows`: ``rank``, ``player``,
            ``move``, ``valid``, ``reason``, ``score``, ``bonus``, ``top``); the first
            :data:`MAX_SCORE_ROWS` are shown, with the top move on one line to make room,
            and "… und N weitere Spieler" for the others (the page's script hides more
            rows, and counts them, when they do not fit the screen at :data:`ROWS_VH`). Rows with ``sum`` (the
            player's total so far) and ``percent`` (of the master total) are the running
            standings: ranked by ``sum``, with the round's move and points, under a header row.
        scores_label: heading over ``round_scores`` ("Ergebnisse Runde 6").
        poll: instead of reloading every 5 s, ask ``poll["url"]`` every
            ``poll["every"]`` seconds (default 2) for JSON and reload only when its
            ``view`` differs from ``poll["key"]``; ``poll["now"]`` (server time) and
            the answers' ``now`` keep the countdown on the server's clock. An error
            answer (its JSON ``error`` is shown), no answer within
            :data:`POLL_TIMEOUT` seconds or no connection puts a large German banner
            over the dimmed page and stops the countdown; polling goes on, and the
            banner goes when an answer comes again (the page reloads if ``view``
            changed meanwhile).

    Returns:
        the HTML page (self-contained: inline SVG, CSS and script).
    """
    dense = bool(round_scores) and len(round_scores) > DENSE_ROWS
    script = nav_html = ""
    if nav:
        links = []
        for key, text in (("prev", "← vorige Runde"), ("index", "Übersicht"), ("next", "nächste Runde →")):
            if nav.get(key):
                links.append(f'<a href="{_esc(nav[key])}">{text}</a>')
        nav_html = f'<div class="nav">{"".join(links)}</div>'
        script = ("document.addEventListener('keydown',function(e){var m={ArrowLeft:%s,ArrowRight:%s};"
                  "if(m[e.key])location.href=m[e.key];});"
                  % (json.dumps(nav.get("prev")), json.dumps(nav.get("next"))))
    # the event's name with the links beside it (no room is taken from the rest)
    parts = [f'<div class="wrap"><div class="board">{board_svg(board, new_tiles, standalone=False)}</div>',
             f'<div class="side{" dense" if dense else ""}">',
             f'<div class="topline"><div class="event">{_esc(event_name)}</div>{nav_html}</div>']
    if clock is not None:
        # round number and countdown side by side, both large
        start = "" if clock.get("start") is None else f"{clock['start']:.3f}"
        secs = int(clock["seconds"])
        left = f"{secs // 60}:{secs % 60:02d}"  # until the script runs (the same text as an idle clock)
        head = [f'<div class="round" data-round="{round_no}">Runde <b>{round_no}</b></div>'] if round_no else []
        # the hidden copies keep the room of the widest text the clock will show
        head.append(f'<div title="Zeit"><div class="clockbox"><div id="clock" class="time idle" '
                    f'data-start="{start}" data-len="{secs}">{left}</div>'
                    f'<div class="time ghost" aria-hidden="true">Zeit!</div>'
                    f'<div class="time ghost" aria-hidden="true">{left}</div></div></div>')
        parts.append(f'<div class="head">{"".join(head)}</div>')
    elif round_no:
        parts.append(f'<div class="head"><div class="round" data-round="{round_no}">Runde <b>{round_no}</b></div>'
                     '</div>')
    if rack:
        parts.append(f'<div><div class="label">Buchstaben</div>{rack_html(rack, board.alphabet)}</div>')
    if top is not None:
        parts.append(_top_html(top_label, top[0], top[1], top[2] if len(top) > 2 else (),
                               inline=bool(round_scores)))
    if round_scores:
        parts.append(_scores_html(scores_label, round_scores))
    info = []
    if bag is not None:
        info.append(f"Im Beutel: {de_number(bag)} Steine")
    if note:
        info.append(_esc(note))
    if info:
        parts.append(f'<div class="small">{(" · " if dense else "<br>").join(info)}</div>')
    if standings:
        rows = "".join(f'<tr><td class="n">{r["rank"]}.</td><td>{_esc(r["player"])}</td>'
                       f'<td class="n">{de_number(r["total"])}</td><td class="n">{de_percent(r["percent"])}</td></tr>'
                       for r in standings[:MAX_STANDINGS])
        more = len(standings) - MAX_STANDINGS
        more = f'<div class="small">… und {more} weitere{"r" if more == 1 else ""} Spieler</div>' if more > 0 else ""
        head = '<tr><th class="n">Platz</th><th>Spieler</th><th class="n">Punkte</th><th class="n">% vom Top</th></tr>'
        parts.append(f'<div><div class="label">{_esc(standings_label)}</div><table class="st">{head}{rows}</table>'
                     f'{more}</div>')
    parts.append("</div></div>")
    title = f"Runde {round_no} – {event_name}" if round_no else event_name
    return _page(title, "\n".join(parts), refresh=refresh, script=script, poll=poll)


def index_page(event_name: str, rounds: list[dict], standings: list[dict], status: str) -> str:
    """Overview page: every round (rack, top move, score, running total) and the standings.

    Args:
        event_name: heading.
        rounds: ``{"round", "rack", "top", "score", "cumulative", "href"}`` per closed round.
        standings: ``{"rank", "player", "total", "percent", "tops"}`` per player, optionally
            ``table``, ``penalty`` (points deducted), ``warnings``, ``joined``, ``left``
            (columns Tisch, Abzug and Verw. appear when any player has them).
        status: a line about the event's state.
    """
    css = (_CSS + "body{padding:3vh 4vw;height:auto}h1{font-size:5vh;margin:0 0 1vh}"
           "table{border-collapse:collapse;font-size:2.6vh;margin:2vh 0 4vh}"
           "td,th{padding:.6vh 1.4vw;border-bottom:1px solid #ccc;text-align:left}"
           "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}a{color:#2f6db5}"
           "a[href]{display:inline-flex;align-items:center;justify-content:center;min-height:32px;"
           "min-width:32px}"  # a tap target on a phone (a round's link was 9 x 16 px)
           ".wide{max-width:100%;overflow-x:auto;-webkit-overflow-scrolling:touch}.wide table{margin-top:0}"
           "@media (max-width:700px){body{padding:2vh 3vw}h1{font-size:26px}table{font-size:14px}"
           "td,th{padding:4px 4px}th{white-space:normal}td{overflow-wrap:anywhere}.small{font-size:14px}}"
           ".bl{border:.1em dashed #7b7b7b;border-radius:.1em;padding:0 .05em;color:#555}")
    rows = "".join(
        f'<tr><td class="n"><a href="{_esc(r["href"])}">{r["round"]}</a></td><td>{_esc(r["rack"])}</td>'
        f'<td>{notation_html(r["top"])}</td><td class="n">{de_number(r["score"])}</td>'
        f'<td class="n">{de_number(r["cumulative"])}</td></tr>'
        for r in rounds)
    tables = any(s.get("table") is not None for s in standings)
    extra = any(s.get("penalty") or s.get("warnings") for s in standings)

    def _note(s: dict) -> str:
        out = []
        if s.get("joined"):
            out.append(f"ab Runde {s['joined']}")
        if s.get("left"):
            out.append(f"ausgeschieden in Runde {s['left']}")
        return f' <span class="small">({_esc(", ".join(out))})</span>' if out else ""

    srows = "".join(
        f'<tr><td class="n">{s["rank"]}</td>'
        + (f'<td class="n">{"" if s.get("table") is None else s["table"]}</td>' if tables else "")
        + f'<td>{_esc(s["player"])}{_note(s)}</td><td class="n">{de_number(s["total"])}</td>'
        f'<td class="n">{de_percent(s["percent"])}</td><td class="n">{s["tops"]}</td>'
        + (f'<td class="n">{"−" + de_number(s["penalty"]) if s.get("penalty", 0) > 0 else "+" + de_number(-s["penalty"]) if s.get("penalty") else ""}</td>'
           f'<td class="n">{s.get("warnings") or ""}</td>' if extra else "")
        + "</tr>"
        for s in standings)
    body = (f"<h1>{_esc(event_name)}</h1><div class=\"small\">{_esc(status)} · "
            f"<a href=\"current.html\">aktuelle Runde</a></div>")
    if standings:
        body += ("<div class=\"wide\"><table><tr><th class=\"n\">Platz</th>"
                 + ("<th class=\"n\">Tisch</th>" if tables else "")
                 + "<th>Spieler</th><th class=\"n\">Punkte</th>"
                 "<th class=\"n\">% vom Top</th><th class=\"n\">Tops</th>"
                 + ("<th class=\"n\">Abzug</th><th class=\"n\">Verw.</th>" if extra else "")
                 + f"</tr>{srows}</table></div>")
    body += ("<div class=\"wide\"><table><tr><th class=\"n\">Runde</th><th>Buchstaben</th><th>Top</th>"
             f"<th class=\"n\">Punkte</th><th class=\"n\">Summe</th></tr>{rows}</table></div>")
    return ("<!DOCTYPE html>\n<html lang=\"de\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{_esc(event_name)}</title>\n<style>{css}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n")
