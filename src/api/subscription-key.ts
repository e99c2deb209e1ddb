// The subscription key of spec §9: lowercase hex SHA-1 of the order id followed by the subscription id. A module of its
// own, which billing.ts imports lazily: SHA-1 (@noble/hashes) serves the subscription's calls only, which no page makes
// before the first signed-in screen has painted, so it is not part of that screen's code.
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { sha1 } from '@noble/hashes/legacy.js'

export const subscriptionKey = (orderId: number, subscriptionId: string) => bytesToHex(sha1(utf8ToBytes(`${orderId}${subscriptionId}`)))
