export {
  curriculumStateSchema,
  eventSchema,
  type SchemaKind,
  schemas,
  skillSchema,
  taskSchema,
  trajectorySchema,
  usageSchema,
  validationResultSchema,
  verdictSchema,
} from './schemas.js';
export {
  checkSchema,
  compileSchema,
  isValid,
  type SchemaChecker,
  type SchemaTypes,
  toJsonPath,
  validate,
} from './validate.js';
