// Package headless starts headless chromium for the browser measurements
// of this module, with the flags the project's browser tests use, so the
// figures are taken in the browser the tests run in.
package headless

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// Start starts headless chromium, 960 x 540, with the flags of the
// project's browser tests (internal/browsertest: WebGL2 on SwiftShader,
// no background throttling) and a profile in the directory profile, and
// returns the context of its first tab and the function that stops it.
// extra flags are added after the common ones.
func Start(ctx context.Context, profile string, extra ...chromedp.ExecAllocatorOption) (context.Context, context.CancelFunc, error) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		return nil, nil, fmt.Errorf("no chromium on PATH (scripts/setup.sh installs it): %w", err)
	}
	opts := append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(960, 540),
	}, extra...)
	actx, cancelA := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil {
		cancelB()
		cancelA()
		return nil, nil, fmt.Errorf("starting chromium: %w", err)
	}
	return bctx, func() { cancelB(); cancelA() }, nil
}
