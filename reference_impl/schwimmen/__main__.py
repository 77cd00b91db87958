from schwimmen.cli.main import main

raise SystemExit(main())
