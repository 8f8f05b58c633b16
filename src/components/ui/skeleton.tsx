import type { CSSProperties } from 'react';

interface SkeletonProps {
  className?: string;
  style?: CSSProperties;
}

/** A shimmering placeholder block. */
export function Skeleton({ className = '', style }: SkeletonProps) {
  return (
    <div
      aria-hidden="true"
      style={style}
      className={`animate-[shimmer_1.6s_linear_infinite] bg-[linear-gradient(90deg,#f1f1f1_0%,#e7e7e7_50%,#f1f1f1_100%)] bg-[length:200%_100%] ${className}`}
    />
  );
}
