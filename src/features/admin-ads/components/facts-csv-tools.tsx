import { useRef, useState, type ChangeEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { errorTextOf } from '../../../lib/api-error.ts';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import { toast } from '../../../lib/toast.ts';
import { downloadCsv, exportFactsCsv, useImportAdFacts } from '../api/facts-csv.ts';
import type { AdminAdsQuery } from '../api/get-admin-ads.ts';
import { getAdminAdFacts } from '../api/get-admin-ad-facts.ts';
import type { CatalogOption } from '../api/get-catalog-options.ts';
import { FACTS_CSV_MAX_BYTES, factsCsvFileName, idsOfFile, previewImport, readFactsFile, type FileProblem, type ImportPreview } from '../lib/facts-csv.ts';
import { readFileText } from '../lib/read-file-text.ts';
import { ImportPreviewDialog } from './import-preview.tsx';

const C = ADMIN_TEXTS.adminFacts.csv;

function fileProblemText(problem: FileProblem): string {
  switch (problem.code) {
    case 'not_csv':
      return C.fileProblems.not_csv(problem.record);
    case 'unknown_column':
    case 'duplicate_column':
      return C.fileProblems[problem.code](problem.column);
    case 'too_many_rows':
      return C.fileProblems.too_many_rows(problem.rows);
    default:
      return C.fileProblems[problem.code];
  }
}

interface FactsCsvToolsProps {
  query: AdminAdsQuery;
  hooks: CatalogOption[];
}

/** Export the ads matching the filters as the facts CSV; import one back through a preview of its changes. */
export function FactsCsvTools({ query, hooks }: FactsCsvToolsProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [exporting, setExporting] = useState(false);
  const [reading, setReading] = useState(false);
  const [fileName, setFileName] = useState('');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const apply = useImportAdFacts();

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { page: _page, ...filters } = query;
      const result = await exportFactsCsv(filters);
      if (result.exported === 0) {
        toast.error(C.exportFailed, { description: C.nothingToExport });
        return;
      }
      downloadCsv(result.csv, factsCsvFileName());
      toast.success(C.exported.title, {
        description: result.exported < result.total ? C.exportedSome(result.exported, result.total) : C.exported.description(result.exported),
      });
    } catch (error) {
      toast.error(C.exportFailed, { description: errorTextOf(error) });
    } finally {
      setExporting(false);
    }
  };

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > FACTS_CSV_MAX_BYTES) {
      toast.error(C.readFailed, { description: C.fileProblems.too_large });
      return;
    }
    setReading(true);
    try {
      const text = await readFileText(file).catch(() => null);
      if (text === null) {
        toast.error(C.readFailed, { description: C.fileProblems.unreadable });
        return;
      }
      const read = readFactsFile(text);
      if (!read.ok) {
        toast.error(C.readFailed, { description: fileProblemText(read.problem) });
        return;
      }
      const stored = await getAdminAdFacts(idsOfFile(read.file));
      setFileName(file.name);
      setPreview(previewImport(read.file, stored, hooks));
    } catch (error) {
      toast.error(C.readFailed, { description: errorTextOf(error) });
    } finally {
      setReading(false);
    }
  };

  const applyChanges = () => {
    if (!preview) return;
    apply.mutate(preview.changed, {
      onSuccess: (result) => {
        if (result.ok) {
          toast.success(C.applied.title, { description: C.applied.description(result.updated) });
          setPreview(null);
        } else {
          toast.error(C.applyFailed, { description: C.refused });
          setPreview({ ...preview, errors: result.errors });
        }
      },
      onError: (error) => toast.error(C.applyFailed, { description: errorTextOf(error) }),
    });
  };

  return (
    <div className="flex flex-wrap items-center gap-2">
      <p className="mr-auto max-w-xl text-xs text-neutral-500">{C.hint}</p>
      <Button variant="outline" size="sm" disabled={exporting} onClick={() => void exportCsv()}>
        {exporting ? C.exporting : C.export}
      </Button>
      <Button variant="outline" size="sm" disabled={reading} onClick={() => inputRef.current?.click()}>
        {reading ? C.reading : C.import}
      </Button>
      <input ref={inputRef} type="file" accept=".csv,text/csv" className="sr-only" tabIndex={-1} aria-label={C.import} data-testid="facts-csv-input" onChange={(event) => void readFile(event)} />
      <ImportPreviewDialog fileName={fileName} preview={preview} applying={apply.isPending} onApply={applyChanges} onClose={() => setPreview(null)} />
    </div>
  );
}
