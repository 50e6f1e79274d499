"use client";

import { createContext, useContext } from "react";

// When a server action answers "confirm it's you" (a production key change on
// a session that last proved itself over 10 minutes ago), the form asks the
// dashboard's step-up dialog, and sends the same submission again once the
// user has confirmed: nothing typed is lost. Outside the dashboard there is no
// dialog, and the refusal's message is all the form shows.

export interface StepUpRequest {
  /** Runs once the session is fresh again: the same submission, sent again. */
  retry: () => void;
  /**
   * Where focus goes when the dialog closes, confirmed or not (the asking form's submit button): the button that
   * opened it was disabled while the form was sent.
   */
  returnTo: HTMLElement | null;
  /** Runs when the person closes the dialog unanswered (Escape or Cancel): the form drops the refusal's message. */
  onCancel: () => void;
}

export interface StepUp {
  ask: (request: StepUpRequest) => void;
}

export const StepUpContext = createContext<StepUp | null>(null);

export const useStepUp = () => useContext(StepUpContext);
