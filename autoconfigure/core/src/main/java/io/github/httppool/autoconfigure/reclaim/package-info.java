/**
 * Auto-configuration of the reclaiming of connections leased for responses that the
 * application never closes.
 */
@NullMarked
package io.github.httppool.autoconfigure.reclaim;

import org.jspecify.annotations.NullMarked;
