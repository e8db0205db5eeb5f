/**
 * Twinscape's widget kit: thin wrappers over radix-ui plus the shared widgets of SPEC §2–§5.
 * Pages import from here only. The theme's CSS variables (`--ts-*`) load with the kit.
 */
import './theme.css'
import './layout.css'

export { Button, type ButtonProps, type ButtonVariant } from './Button'
export { type ColorPickerProps, ColorPicker } from './color/ColorPicker'
export {
  alphaFromOpacityPercent,
  defaultRgba,
  defaultRgbaColor,
  formatRgba,
  hexFromRgba,
  hexWithAlphaFromRgba,
  opacityPercentFromAlpha,
  parseRgba,
  type Rgba,
  roundAlpha,
} from './color/rgba'
export { ConfirmHost } from './confirm/ConfirmHost'
export { confirmDelete } from './confirm/confirm-delete'
export { FileChoiceFace } from './FileChoiceFace'
export {
  alert,
  cancelAllConfirms,
  type ConfirmOptions,
  confirm,
} from './confirm/confirm-store'
export { DateField, type DateFieldProps, datePartOrder } from './DateField'
export { Dialog, type DialogProps } from './Dialog'
export { EmptyState, type EmptyStateProps } from './EmptyState'
export { ErrorState, type ErrorStateProps } from './ErrorState'
export { LoadStates, type LoadStatesProps } from './LoadStates'
export { FormDialog, type FormDialogProps, FormWrapper, type FormWrapperProps } from './FormWrapper'
export { ImagePicker, type ImagePickerProps } from './image/ImagePicker'
export {
  acceptedImageTypes,
  type ImageRejection,
  type ImageValidation,
  imageInputAccept,
  imageUploadLimitBytes,
  validateImageFile,
} from './image/image-validation'
export { type MessageType, messageTypes } from './message-type'
export { NumberBlock, type NumberFieldProps, NumberInput } from './number/NumberField'
export {
  clampNumber,
  formatNumber,
  type NumberRules,
  normaliseNumber,
  numberBlockDefaults,
  numberInputDefaults,
  parseNumberText,
  roundToPrecision,
  stepNumber,
} from './number/number-rules'
export { PasswordField, type PasswordFieldProps } from './PasswordField'
export { Select, type SelectOption, type SelectProps } from './Select'
export { handleClickMaxMs, SidePanel, type SidePanelProps, sidePanelWidths } from './SidePanel'
export { Spinner, type SpinnerProps } from './Spinner'
export {
  AltitudeSlider,
  altitudeRange,
  type PresetSliderProps,
  RotationSlider,
  rotationRange,
  Slider,
  type SliderProps,
} from './Slider'
export { type TabItem, Tabs, type TabsProps } from './Tabs'
export { defaultTextAreaMaxLength, TextArea, type TextAreaProps } from './TextArea'
export { TextField, type TextFieldProps } from './TextField'
export { RelativeTime, type RelativeTimeProps } from './time/RelativeTime'
export {
  type RelativeTimeUnit,
  relativeTime,
  relativeTimeParts,
  type Translate,
} from './time/relative-time'
export { ToastHost } from './toast/ToastHost'
export { defaultToastDurationMs, type ToastOptions, toast } from './toast/toast-store'
export { TableHead } from './TableHead'
export { Tooltip, type TooltipProps } from './Tooltip'
export { Tree, type TreeProps } from './tree/Tree'
export {
  defaultTreeMaxLayer,
  maxRenderedTreeLayers,
  type TreeNode,
  type TreeNodeId,
} from './tree/tree-model'
export { UiRoot } from './UiRoot'
export {
  fakeProgressDefaults,
  type FakeProgressOptions,
  startFakeProgress,
  startFakeRowProgress,
} from './upload/fake-progress'
export { formatFileSize } from './upload/file-size'
export {
  type LiveText,
  type NewUploadRow,
  type UploadRow,
  type UploadStatus,
  uploadCounts,
  uploadListScrollThreshold,
  uploadStore,
} from './upload/upload-store'
export { UploadWindow } from './upload/UploadWindow'
