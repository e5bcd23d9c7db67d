/**
 * Reports written in other languages: the same evidence (a causal word, a hedge, a negation) read
 * in Russian, Chinese, Japanese, Korean, Spanish, Portuguese, German and French, and the symptom
 * check counting words of scripts written with and without spaces. Threads written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { extractAttributions } from '../../../src/backward/attribute.js';
import { screenThread } from '../../../src/backward/attribution-screen.js';
import { decideReport, reportDrafts, type SanitizeTarget } from '../../../src/backward/report.js';
import { hasObservableSymptom } from '../../../src/backward/symptom.js';
import type { Thread } from '../../../src/model/backward.js';
import { aThread } from './build.js';

const FULL = 'c0ffee4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e';
const SHORT = FULL.slice(0, 9);

function titled(title: string, bodies: readonly string[]): Thread {
  return { ...aThread(bodies), title };
}

const decisionOf = (thread: Thread) => screenThread(thread, extractAttributions(thread));

describe('attributions written in other languages', () => {
  it.each([
    ['Russian', 'Не открываются настройки', `Коммит ${SHORT} сломал окно настроек: оно больше не открывается.`],
    ['Chinese', '设置窗口无法打开', `提交 ${SHORT} 引入了这个问题，设置窗口再也打不开了。`],
    ['Japanese', '設定画面が開かない', `${SHORT} のコミットで設定画面が壊れました。ボタンを押しても何も起きません。`],
    ['Korean', '설정 창이 열리지 않음', `${SHORT} 커밋이 원인입니다. 설정 창이 더 이상 열리지 않습니다.`],
    ['Spanish', 'La ventana de ajustes no abre', `El fallo fue introducido en ${SHORT}; desde entonces la ventana de ajustes no abre.`],
    ['Portuguese', 'A janela de configurações não abre', `O commit ${SHORT} quebrou a janela de configurações, que não abre mais.`],
    ['German', 'Einstellungsfenster öffnet nicht', `Der Fehler wurde mit ${SHORT} eingeführt, seitdem öffnet das Einstellungsfenster nicht mehr.`],
    ['French', "La fenêtre des réglages ne s'ouvre plus", `Le commit ${SHORT} a cassé la fenêtre des réglages, elle ne s'ouvre plus.`],
  ])('%s: the commit is an attribution and the thread a candidate', (_lang, title, body) => {
    const thread = titled(title, [body]);
    expect(extractAttributions(thread).map((a) => a.ref.value)).toEqual([SHORT]);
    expect(decisionOf(thread).decision).toBe('candidate');
  });

  it.each([
    ['Russian', `Возможно, это коммит ${SHORT} сломал окно настроек.`],
    ['Chinese', `可能是提交 ${SHORT} 引入了这个问题。`],
    ['Japanese', `たぶん ${SHORT} のコミットが原因です。`],
    ['Spanish', `Quizás el fallo fue introducido en ${SHORT}.`],
    ['German', `Vielleicht wurde der Fehler mit ${SHORT} eingeführt.`],
    ['French', `Le commit ${SHORT} a peut-être cassé la fenêtre.`],
  ])('%s: a hedged attribution is refused as hedged', (_lang, body) => {
    expect(decisionOf(titled('Settings window', [body])).reasons.map((r) => r.code)).toContain('hedged');
  });

  it.each([
    ['Russian', `Это не ${SHORT} сломал окно, я проверил.`],
    ['German', `Es war nicht ${SHORT}, der den Fehler verursacht hat.`],
    ['Chinese', `不是 ${SHORT} 导致的这个问题。`],
  ])('%s: a negated reference is no attribution', (_lang, body) => {
    expect(extractAttributions(titled('Settings window', [body]))).toEqual([]);
  });

  it('the answer goes from a Russian report and the symptom in Russian stays', () => {
    const thread = titled('Не открываются настройки', [`Коммит ${FULL} сломал окно настроек.\n\nПри нажатии на кнопку ничего не происходит, в журнале пусто.`]);
    const attributions = extractAttributions(thread);
    const target: SanitizeTarget = { gold: FULL, goldSubject: null, prNumbers: [], knownShas: [FULL] };
    const out = decideReport(thread, attributions, target, reportDrafts(thread, attributions), new Set());
    expect(out.reasons).toEqual([]);
    expect(out.report.text).not.toContain(FULL.slice(0, 7));
    expect(out.report.text).toContain('При нажатии на кнопку ничего не происходит');
  });
});

describe('the symptom check in other scripts', () => {
  it.each([
    ['Cyrillic words', 'Окно настроек не открывается после обновления'],
    ['Chinese without spaces', '设置窗口无法打开，点击按钮没有反应'],
    ['Japanese without spaces', '設定画面が開かない。ボタンを押しても反応しない'],
    ['accented Latin words', 'La fenêtre des réglages ne répond plus après la mise à jour'],
  ])('%s: enough', (_name, text) => {
    expect(hasObservableSymptom(text).ok).toBe(true);
  });

  it.each([
    ['one Chinese word', '错误'],
    ['one Cyrillic word', 'Ошибка'],
  ])('%s: not enough', (_name, text) => {
    expect(hasObservableSymptom(text).ok).toBe(false);
  });
});
