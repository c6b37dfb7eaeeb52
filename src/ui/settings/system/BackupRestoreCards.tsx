import { FileDown, FileUp } from 'lucide-react'
import { useState } from 'react'
import { useSnapshot } from 'valtio'
import { hasPasswordLogin, securityStatusState } from '../../auth/security-status.ts'
import { BUTTON } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { ExportModal } from '../security/ExportModal.tsx'
import { ImportModal } from '../security/ImportModal.tsx'

/**
 * Spec 001 §2 System tab: Backup & restore, opening the same export and import dialogs as the
 * Security tab.
 */
export function BackupRestoreCards() {
  const [dialog, setDialog] = useState<'export' | 'import' | null>(null)
  const { status } = useSnapshot(securityStatusState)
  const close = () => setDialog(null)
  return (
    <>
      <Card
        title="Export Configuration"
        icon={<FileDown className="size-4" aria-hidden />}
        description="Every setting in one encrypted file, node credentials included."
      >
        <button type="button" className={BUTTON.secondary} onClick={() => setDialog('export')}>
          <FileDown className="size-4" aria-hidden />
          Export configuration
        </button>
      </Card>
      <Card
        title="Restore Configuration"
        icon={<FileUp className="size-4" aria-hidden />}
        description="Replace this installation's settings with an exported file."
      >
        <button type="button" className={BUTTON.secondary} onClick={() => setDialog('import')}>
          <FileUp className="size-4" aria-hidden />
          Restore configuration
        </button>
      </Card>
      {dialog === 'export' && (
        <ExportModal hasLogin={status ? hasPasswordLogin(status) : false} onClose={close} />
      )}
      {dialog === 'import' && <ImportModal onClose={close} />}
    </>
  )
}
