//! How deep values may nest, and the stack growth that lets them (feature `stack-growth`).

/// How deeply values may nest in a binary resource: the engine's own 1024 levels with the
/// `stack-growth` feature, else [`godot_bin::STACK_SAFE_DEPTH`], which a thread's own stack
/// holds (the text forms are limited by [`godot_bin::text::MAX_DEPTH`], the same way).
pub(crate) const MAX_DEPTH: usize = if cfg!(feature = "stack-growth") {
    1024
} else {
    godot_bin::STACK_SAFE_DEPTH
};

/// Runs `f`, growing the stack first when little is left, so that the depth limit, not the
/// thread's stack, ends deeply nested values (feature `stack-growth`).
#[cfg(feature = "stack-growth")]
#[cold]
#[inline(never)]
pub(crate) fn grow_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(256 << 10, 4 << 20, f)
}

/// Runs `f` on the thread's own stack, which [`MAX_DEPTH`] keeps within bounds.
#[cfg(not(feature = "stack-growth"))]
#[inline(always)]
pub(crate) fn grow_stack<R>(f: impl FnOnce() -> R) -> R {
    f()
}
