/** The lifecycle kinds by name. */
import type { LifecycleKindName } from '../load-mix.js';
import { alter } from './alter.js';
import { bulk } from './bulk.js';
import { churn } from './churn.js';
import type { LifecycleKind } from './lifecycle-step.js';
import { partitionTruncate } from './partition-truncate.js';
import { partitions } from './partitions.js';
import { surveyBait } from './survey-bait.js';

export const LIFECYCLE_KINDS: Record<LifecycleKindName, LifecycleKind> = { churn, alter, partitions, 'partition-truncate': partitionTruncate, bulk, 'survey-bait': surveyBait };
