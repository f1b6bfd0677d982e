// The field manager and force of a write request, from its query and user agent, checked as kube-apiserver does.
import { ApiStatusError } from '../api-status.ts';
import { checkFieldManager, managerFromUserAgent } from './field-manager.ts';

/** The media type of a server-side apply patch. */
export const APPLY_PATCH_TYPE = 'application/apply-patch+yaml';

const OPTIONS_KIND: Record<string, string> = {
  POST: 'CreateOptions',
  PUT: 'UpdateOptions',
  PATCH: 'PatchOptions',
};

/**
 * `fieldManager` (else the user agent's program name; required for an apply patch) and `force` (apply
 * patches only) of a POST, PUT or PATCH; nothing for other methods.
 * @throws ApiStatusError 422 naming `fieldManager` or `force`, worded as kube-apiserver
 */
export function writeOptions(
  method: string,
  contentType: string,
  query: URLSearchParams,
  userAgent: string | undefined,
): { fieldManager?: string; force?: boolean } {
  const kind = OPTIONS_KIND[method];
  if (!kind) return {};
  const apply = method === 'PATCH' && contentType === APPLY_PATCH_TYPE;
  const given = query.get('fieldManager') ?? '';
  const forceText = query.get('force');
  if (!apply && forceText !== null && method === 'PATCH') {
    throw new ApiStatusError(
      422,
      'Invalid',
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
      {
        group: 'meta.k8s.io',
        kind: 'PatchOptions',
        causes: [
          {
            type: 'FieldValueForbidden',
            message: 'Forbidden: may not be specified for non-apply patch',
            field: 'force',
          },
        ],
      } as never,
    );
  }
  checkFieldManager(kind, given, apply);
  const force = forceText === 'true' || forceText === '1' || forceText === '';
  return { fieldManager: given || managerFromUserAgent(userAgent), ...(apply ? { force } : {}) };
}
