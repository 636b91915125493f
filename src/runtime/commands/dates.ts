/**
 * getDateTime, getTimeStamp, stampToDatetime (command reference): Python's
 * strftime/strptime codes, time zones by IANA name, shifts in seconds, Unix
 * timestamps as floats. The time comes from the clock port; "local" time (an
 * empty zone) is UTC, the sandbox's zone, so a run does not depend on the
 * machine it runs on.
 */
import { toFloat } from '../expressions/evaluate';
import { RunFailure } from '../failure';
import { pyStr } from '../pytext';
import { float } from '../values';
import { command, type CallContext } from './types';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A moment as a zone's wall clock. */
export interface WallClock {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  micro: number;
  /** Minutes east of UTC. */
  offset: number;
  zone: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        timeZoneName: 'short',
      });
    } catch {
      throw RunFailure.of('date-error', `unknown time zone '${zone}'`);
    }
    formatters.set(zone, f);
  }
  return f;
}

/** The wall clock of `ms` (epoch milliseconds) in `zone` ('' or UTC: UTC). */
function wallClock(ms: number, zone: string): WallClock {
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw RunFailure.of('date-error', 'the time is out of range');
  const micro = Math.round((((ms % 1000) + 1000) % 1000) * 1000);
  const z = zone.trim();
  if (z === '' || z.toUpperCase() === 'UTC' || z.toUpperCase() === 'GMT') {
    const d = new Date(ms);
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
      micro,
      offset: 0,
      zone: 'UTC',
    };
  }
  const parts: Record<string, string> = {};
  for (const p of formatter(z).formatToParts(new Date(ms))) parts[p.type] = p.value;
  const w = {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const offset = Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60000);
  return { ...w, micro, offset, zone: parts.timeZoneName ?? z };
}

const pad = (n: number, width = 2, fill = '0'): string => String(n).padStart(width, fill);

function dayOfYear(w: WallClock): number {
  return Math.round((Date.UTC(w.year, w.month - 1, w.day) - Date.UTC(w.year, 0, 1)) / 86400000) + 1;
}

function weekday(w: WallClock): number {
  return new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay();
}

/** Python's strftime in the C locale. */
function strftime(w: WallClock, format: string): string {
  return format.replace(/%(.)/gs, (_m, code: string) => {
    switch (code) {
      case 'Y':
        return String(w.year);
      case 'y':
        return pad(w.year % 100);
      case 'm':
        return pad(w.month);
      case 'd':
        return pad(w.day);
      case 'e':
        return pad(w.day, 2, ' ');
      case 'H':
        return pad(w.hour);
      case 'I':
        return pad(w.hour % 12 === 0 ? 12 : w.hour % 12);
      case 'M':
        return pad(w.minute);
      case 'S':
        return pad(w.second);
      case 'f':
        return pad(w.micro, 6);
      case 'p':
        return w.hour < 12 ? 'AM' : 'PM';
      case 'b':
      case 'h':
        return (MONTHS[w.month - 1] as string).slice(0, 3);
      case 'B':
        return MONTHS[w.month - 1] as string;
      case 'a':
        return (DAYS[weekday(w)] as string).slice(0, 3);
      case 'A':
        return DAYS[weekday(w)] as string;
      case 'w':
        return String(weekday(w));
      case 'u':
        return String(weekday(w) === 0 ? 7 : weekday(w));
      case 'j':
        return pad(dayOfYear(w), 3);
      case 'z': {
        const sign = w.offset < 0 ? '-' : '+';
        const a = Math.abs(w.offset);
        return `${sign}${pad(Math.floor(a / 60))}${pad(a % 60)}`;
      }
      case 'Z':
        return w.zone;
      case 'c':
        return strftime(w, '%a %b %e %H:%M:%S %Y');
      case 'x':
        return strftime(w, '%m/%d/%y');
      case 'X':
        return strftime(w, '%H:%M:%S');
      case 'D':
        return strftime(w, '%m/%d/%y');
      case 'F':
        return strftime(w, '%Y-%m-%d');
      case 'T':
        return strftime(w, '%H:%M:%S');
      case '%':
        return '%';
      default:
        throw RunFailure.unsupported(
          `the date format code %${code}`,
          'not one of the strftime codes this runtime knows',
        );
    }
  });
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Python's strptime: the whole text must match the format. Returns epoch milliseconds (a naive time is UTC). */
function strptime(text: string, format: string): number {
  const fields: string[] = [];
  let source = '';
  for (let i = 0; i < format.length; i++) {
    const ch = format[i] as string;
    if (ch === '%' && i + 1 < format.length) {
      const code = format[++i] as string;
      const group = (re: string): void => {
        fields.push(code);
        source += `(${re})`;
      };
      switch (code) {
        case 'Y':
          group('\\d{4}');
          break;
        case 'm':
        case 'd':
        case 'H':
        case 'I':
        case 'M':
        case 'S':
        case 'y':
          group('\\d{1,2}');
          break;
        case 'j':
          group('\\d{1,3}');
          break;
        case 'f':
          group('\\d{1,6}');
          break;
        case 'p':
          group('AM|PM|am|pm');
          break;
        case 'b':
        case 'h':
        case 'B':
          group('[A-Za-z]+');
          break;
        case 'a':
        case 'A':
          group('[A-Za-z]+');
          break;
        case 'z':
          group('Z|[+-]\\d{2}:?\\d{2}');
          break;
        case 'Z':
          group('UTC|GMT|Z');
          break;
        case '%':
          source += '%';
          break;
        default:
          throw RunFailure.unsupported(
            `the date format code %${code}`,
            'not one of the strptime codes this runtime knows',
          );
      }
    } else if (/\s/.test(ch)) {
      source += '\\s+';
    } else {
      source += escapeRe(ch);
    }
  }
  const m = new RegExp(`^${source}$`).exec(text);
  if (!m) throw RunFailure.of('date-error', `time data '${text}' does not match format '${format}'`);
  let year = 1900;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let micro = 0;
  let pm: boolean | undefined;
  let offset = 0;
  fields.forEach((code, k) => {
    const v = m[k + 1] as string;
    switch (code) {
      case 'Y':
        year = Number(v);
        break;
      case 'y':
        year = Number(v) + (Number(v) < 69 ? 2000 : 1900);
        break;
      case 'm':
        month = Number(v);
        break;
      case 'd':
        day = Number(v);
        break;
      case 'H':
      case 'I':
        hour = Number(v);
        break;
      case 'M':
        minute = Number(v);
        break;
      case 'S':
        second = Number(v);
        break;
      case 'f':
        micro = Number(v.padEnd(6, '0'));
        break;
      case 'p':
        pm = v.toUpperCase() === 'PM';
        break;
      case 'b':
      case 'h':
      case 'B': {
        const i = MONTHS.findIndex(
          (name) => name.toLowerCase().startsWith(v.toLowerCase()) && (v.length === 3 || name.length === v.length),
        );
        if (i < 0) throw RunFailure.of('date-error', `time data '${text}' does not match format '${format}'`);
        month = i + 1;
        break;
      }
      case 'z':
        if (v !== 'Z') {
          const sign = v.startsWith('-') ? -1 : 1;
          const digits = v.slice(1).replace(':', '');
          offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
        }
        break;
      default:
        break;
    }
  });
  if (pm !== undefined && fields.includes('I')) hour = (hour % 12) + (pm ? 12 : 0);
  const ms = Date.UTC(year, month - 1, day, hour, minute, second) + micro / 1000 - offset * 60000;
  const check = new Date(Date.UTC(year, month - 1, day));
  if (month < 1 || month > 12 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 61) {
    throw RunFailure.of('date-error', `time data '${text}' is not a valid date for '${format}'`);
  }
  return ms;
}

/** A shift in seconds (empty: none). */
function seconds(c: CallContext, i: number): number {
  if (c.isEmpty(i)) return 0;
  return toFloat(c.read(i)).v;
}

export const getDateTime = command({
  name: 'getDateTime',
  arity: [4, 4],
  target: 3,
  inReference: false,
  run(c) {
    const ms = c.ports.clock.now() + seconds(c, 1) * 1000;
    const target = c.targetName(3);
    // The command reference: an empty format gives the Unix timestamp — a blank argument or the empty text "".
    const format = c.isEmpty(0) ? '' : pyStr(c.read(0));
    if (format === '') {
      c.set(target, float(ms / 1000));
      return;
    }
    const zone = c.isEmpty(2) ? '' : pyStr(c.read(2));
    c.set(target, strftime(wallClock(ms, zone), format));
  },
});

export const getTimeStamp = command({
  name: 'getTimeStamp',
  arity: [4, 4],
  target: 3,
  inReference: false,
  run(c) {
    if (c.isEmpty(1)) throw RunFailure.of('argument-error', 'getTimeStamp needs the format of the date');
    const ms = strptime(pyStr(c.read(0)), pyStr(c.read(1)));
    c.set(c.targetName(3), float(ms / 1000 + seconds(c, 2)));
  },
});

export const stampToDatetime = command({
  name: 'stampToDatetime',
  arity: [4, 4],
  target: 3,
  inReference: false,
  run(c) {
    const stamp = toFloat(c.read(0)).v + seconds(c, 2);
    const format = c.isEmpty(1) ? '' : pyStr(c.read(1));
    c.set(c.targetName(3), strftime(wallClock(stamp * 1000, ''), format));
  },
});
