import { Button, type ButtonSize, type ButtonVariant } from '../../../components/ui/button.tsx';
import { SparkIcon } from '../../../components/ui/icons.tsx';
import { SHELL_TEXTS } from '../../../lib/shell-texts.ts';
import { usePricingDialog } from '../hooks/use-pricing-dialog.tsx';
import { useShowUpgradePlan } from '../hooks/use-upgrade-flow.ts';

interface UpgradePlanButtonProps {
  size?: ButtonSize;
  variant?: ButtonVariant;
  className?: string;
  /** Called after the plans open, e.g. to close the drawer the button sits in. */
  onOpened?: () => void;
}

/** 'Upgrade Plan', opening the plans; renders nothing unless the viewer may upgrade (see useShowUpgradePlan). */
export function UpgradePlanButton({ size = 'sm', variant = 'primary', className, onOpened }: UpgradePlanButtonProps) {
  const visible = useShowUpgradePlan();
  const { openPricing } = usePricingDialog();
  if (!visible) return null;
  return (
    <Button
      size={size}
      variant={variant}
      className={className}
      onClick={() => {
        openPricing();
        onOpened?.();
      }}
    >
      <SparkIcon className="h-3.5 w-3.5 text-amber-300" />
      {SHELL_TEXTS.header.upgradePlan}
    </Button>
  );
}
