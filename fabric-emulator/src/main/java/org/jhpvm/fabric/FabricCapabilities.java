package org.jhpvm.fabric;

/**
 * What a fabric guarantees, read by the layer above so that it adds only what is missing (the VIA paper's
 * lesson: no second layer of acknowledgements over a reliable transport).
 *
 * @param reliable       every frame handed to the fabric arrives once and intact (no drop, corruption, duplicate)
 * @param ordered        frames on one source-to-destination path arrive in the order sent
 * @param flowControlled a sender waits for room at the receiver instead of losing frames (back-pressure)
 * @param remoteDma      registered memory regions with remote DMA read/write are available (VIA); no fabric
 *                       offers them yet
 */
public record FabricCapabilities(boolean reliable, boolean ordered, boolean flowControlled, boolean remoteDma) {
}
