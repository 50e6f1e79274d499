"use client";

import { createContext, useContext } from "react";

// When a server action answers "confirm it's you" (a production key change on
// a session that last proved itself over 10 minutes ago), the form asks the
// dashboard's step-up dialog, and sends the same submission again once the
// user has confirmed: nothing typed is lost. Outside the dashboard there is no
// dialog, and the refusal's message is all the form shows.

export interface StepUp {
  /**
   * Opens the dialog; `retry` runs once the session is fresh again. When it closes, confirmed or not, focus goes to
   * `returnTo` (the asking form's submit button): the button that opened it was disabled while the form was sent.
   */
  ask: (retry: () => void, returnTo?: HTMLElement | null) => void;
}

export const StepUpContext = createContext<StepUp | null>(null);

export const useStepUp = () => useContext(StepUpContext);
