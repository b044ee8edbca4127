package com.example.partner;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * The response type of the warm-up guide's example ({@code docs/warmup.md}), so that the
 * example's {@code rehearsal.types} binds.
 *
 * @param symbol the symbol
 * @param price the price
 * @param at when the price was quoted
 */
public record Quote(String symbol, BigDecimal price, Instant at) {
}
