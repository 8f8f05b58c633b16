/** Marks the panel's new-board name input, so that Escape while naming keeps the panel open. */
export const BOARD_NAME_INPUT_ATTRIBUTE = 'data-board-name-input';
