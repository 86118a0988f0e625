#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so `npx consignflow …` works from a checkout without a build step.
require('tsx/cjs');
require('../src/cli.ts');
