/**
 * The worker kit's wire format: what tasks write into the topics between them. Records are bytes (the kit's
 * producers and consumers use byte-array serializers, so that a payload a task cannot decode never stops its
 * consumer); headers tell data, barrier and resume records apart. {@link dev.cairn.kit.wire.KitRecords} writes and
 * reads them; reading answers a {@link dev.cairn.kit.wire.KitRecord}, {@code Malformed} for a record whose kit
 * headers are missing or wrong, never an exception.
 */
package dev.cairn.kit.wire;
