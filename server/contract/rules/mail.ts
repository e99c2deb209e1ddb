// The portal's link to one letter, the same from the « Nouveau courrier » e-mail, the bell's notification, the
// dashboard and the deadlines: /mes-courriers/courriers opens on the letter of that order (mailbox.machine.ts).

export const letterPath = (orderId: number, documentId: number) =>
  `/mes-courriers/courriers?domiciliation=${orderId}&courrier=${documentId}`
