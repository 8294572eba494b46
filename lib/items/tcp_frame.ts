/**
 * Framing of the item socket (spec "Item request over a socket"): one codec, written once in
 * plain JavaScript (sidecar/frame.mjs) so that the Node sidecar uses the very same code.
 */
export {
  decodeRequestPacket,
  encodeRequestPacket,
  encodeResponsePacket,
  MAX_PACKET_BYTES,
  PacketAccumulator,
  PacketError,
} from "../../sidecar/frame.mjs";
