import sys

from saturnd.daemon import main

sys.exit(main())
