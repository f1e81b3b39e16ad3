// Every action the API records has a text: the API's sources are read and each action they can
// record (an `action:` of an entry or a note, the action argument of a module's `record(…)`,
// either branch of a conditional) must be one of the contract's ACTIVITY_ACTIONS, the list the
// web app translates in both languages (its own test checks every listed code has both texts).
// The type of ActivityInput holds the same rule at compile time; this walk holds it for actions
// that reach `record` through an untyped path as well.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ACTIVITY_ACTIONS, ACTIVITY_TONES } from '@debesis/contract';

const SOURCE_ROOT = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$|\.test-support\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The string literals an expression can evaluate to (through conditionals and parentheses). */
function literals(node: ts.Expression): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isParenthesizedExpression(node)) return literals(node.expression);
  if (ts.isConditionalExpression(node)) return [...literals(node.whenTrue), ...literals(node.whenFalse)];
  return [];
}

const calleeName = (call: ts.CallExpression) =>
  ts.isIdentifier(call.expression)
    ? call.expression.text
    : ts.isPropertyAccessExpression(call.expression)
      ? call.expression.name.text
      : '';

/** Whether an object literal sits in an error's `extra` (an AppError's, not an activity entry). */
function inErrorExtra(node: ts.Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (ts.isPropertyAssignment(parent) && parent.name.getText() === 'extra') return true;
  }
  return false;
}

interface Recorded {
  action: string;
  where: string;
}

function recordedActions(files: readonly string[]): Recorded[] {
  const tones = new Set<string>(ACTIVITY_TONES);
  const found: Recorded[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const where = (node: ts.Node) =>
      `${relative(SOURCE_ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node) => {
      if (
        ts.isPropertyAssignment(node) &&
        node.name.getText() === 'action' &&
        ts.isObjectLiteralExpression(node.parent) &&
        !inErrorExtra(node)
      ) {
        for (const action of literals(node.initializer)) found.push({ action, where: where(node) });
      }
      // A module's own `record(row, meta, 'service stopped', 'info')`; the tone is not an action.
      if (ts.isCallExpression(node) && calleeName(node) === 'record') {
        for (const argument of node.arguments) {
          for (const action of literals(argument)) {
            if (!tones.has(action)) found.push({ action, where: where(argument) });
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('recorded activity actions', () => {
  const recorded = recordedActions(sourceFiles(SOURCE_ROOT));

  it('finds the actions where the modules record them', () => {
    const actions = new Set(recorded.map((entry) => entry.action));
    // One of each way an action reaches the log: an entry, a note, a record(…) argument, a branch.
    for (const action of ['user logged in', 'Samba share created', 'service stopped', 'user deactivated']) {
      expect(actions, action).toContain(action);
    }
  });

  it('records only actions of ACTIVITY_ACTIONS (each has a text in English and Lithuanian)', () => {
    const known = new Set<string>(ACTIVITY_ACTIONS);
    const unknown = recorded.filter((entry) => !known.has(entry.action));
    expect(unknown).toEqual([]);
  });
});
