/**
 * Props shared by the chat screen's lazily loaded dialogs.
 * @module
 */

/** Props of a chat dialog. */
export interface ChatDialogProps {
  /** Closes the dialog. */
  onClose: () => void;
  /** Data for the dialog (e.g. the image URL of the preview). */
  data?: string | undefined;
  /** Called when the dialog did its job (e.g. the rating was accepted). */
  onDone?: () => void;
}
