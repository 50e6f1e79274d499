-- CreateIndex
CREATE INDEX "MailMessage_sentAt_claimedAt_idx" ON "MailMessage"("sentAt", "claimedAt");
