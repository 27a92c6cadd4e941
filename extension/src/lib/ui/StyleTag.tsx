import { styles } from "./styles";

/** The shared stylesheet, for extension pages (the badge injects it into its shadow root). */
export function StyleTag() {
  return (
    <style>{`${styles}\nbody { margin: 0; } .presend { box-shadow: none; border: none; max-width: none; }`}</style>
  );
}
